import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Chooses the Dotpay system (`DotPay.debugMode`, *wybór systemu*): `true` the test system, `false` production (the default).
///
/// In payrpc the mode chooses the sandbox's data set: the test system answers with its own channel catalogue (`testChannels` of the sandbox file), and every payment says which system took it (`system`).
public enum SetDebugMode: DotpayMethod {
    public static let name = "dotpay.setDebugMode"
    public static let traits: MethodTraits = [.mutates]

    /// The params.
    public struct Params: JSONModel, Equatable {
        /// Whether to use the test system.
        public var debugMode: Bool
    }

    public typealias Result = NoResult
}
