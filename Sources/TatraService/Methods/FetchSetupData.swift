import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Returns the setup data of the flows: activation, validation rules and amount limits.
///
/// iOS `fetchSetupData:`, Android `setup(CompletionCallback<TBSetupData>)`. In the sandbox the
/// answer comes from `setup` in `tatra-sandbox.json` (regexes, length 140, amounts 0.01 to 5000.00
/// as shipped); `sandbox.tatra.setActivated` turns `isActivated` off and on per profile.
/// `sandbox.failNext` makes the next call fail with `generalError`, `serviceUnavaiableError` or
/// `networkError` (named `general`, `serviceUnavailable`, `network`: their `data.type`).
public enum FetchSetupData: TatraMethod {
    public static let name = "tatra.fetchSetupData"
    public static let traits: MethodTraits = [.ordered]
    public static let aliases = ["tatra.setup"]
    public typealias Params = NoParams
    public typealias Result = SetupData
    public static let errors = TatraErrorType.bankCall
}
