import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Shows the payment's details (description, status, amount) on the summary screen (`setShowDetailsOnSummaryScreen:`, *szczegóły podsumowania*); off by default.
public enum SetShowDetailsOnSummaryScreen: DotpayMethod {
    public static let name = "dotpay.setShowDetailsOnSummaryScreen"
    public static let traits: MethodTraits = [.mutates]

    /// The params.
    public struct Params: JSONModel, Equatable {
        /// Whether to show them.
        public var show: Bool
    }

    public typealias Result = NoResult
}
