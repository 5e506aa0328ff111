import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Masks the CVV field as a password (`DPOneClickManager.treatsCvvAsPassword`, *maskowanie pola z CVV*). In payrpc it changes no answer: a CVV is never echoed or stored either way.
public enum SetTreatsCvvAsPassword: DotpayMethod {
    public static let name = "dotpay.setTreatsCvvAsPassword"
    public static let traits: MethodTraits = [.mutates]

    /// The params.
    public struct Params: JSONModel, Equatable {
        /// Whether the CVV is masked.
        public var treatsCvvAsPassword: Bool
    }

    public typealias Result = NoResult
}
