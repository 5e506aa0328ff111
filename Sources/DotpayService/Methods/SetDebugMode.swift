import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Chooses the Dotpay system (`DotPay.debugMode`, *wybór systemu*): `true` the test system, `false` production (the default).
///
/// In payrpc both answer from the sandbox; the mode is written in every payment's `system` (`test` or `production`).
public enum SetDebugMode: DotpayMethod {
    public static let name = "dotpay.setDebugMode"

    /// The params.
    public struct Params: JSONModel, Equatable {
        /// Whether to use the test system.
        public var debugMode: Bool
    }

    public typealias Result = NoResult
    public static let mutates = true
}
