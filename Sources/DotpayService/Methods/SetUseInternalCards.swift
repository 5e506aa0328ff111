import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Shows or hides the cards remembered in the SDK (`DPOneClickManager.useInternalCards`), leaving only the external ones.
public enum SetUseInternalCards: DotpayMethod {
    public static let name = "dotpay.setUseInternalCards"
    public static let traits: MethodTraits = [.mutates]

    /// The params.
    public struct Params: JSONModel, Equatable {
        /// Whether internal cards are used.
        public var useInternalCards: Bool
    }

    public typealias Result = NoResult
}
