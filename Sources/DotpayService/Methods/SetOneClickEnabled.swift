import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Turns 1Click payments on or off (`DPOneClickManager.enabled`); on by default. Turning it off keeps the remembered cards.
public enum SetOneClickEnabled: DotpayMethod {
    public static let name = "dotpay.setOneClickEnabled"
    public static let traits: MethodTraits = [.mutates]

    /// The params.
    public struct Params: JSONModel, Equatable {
        /// Whether 1Click is on.
        public var enabled: Bool
    }

    public typealias Result = NoResult
}
