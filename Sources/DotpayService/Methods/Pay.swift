import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Pays through the channel the buyer chose: what the SDK's payment controller
/// (`DPDotPayViewController`, with `DPPaymentChannelsViewController` and the payment form) does,
/// ending in its delegate: `didFinishPaymentWithSummary` is the result,
/// `didFailToFinishPaymentWithError` the `paymentFailed` error.
///
/// A finished flow is not a paid payment: the summary's `status` says (`completed`, `rejected`,
/// or still `processing`). With `useLastChannelSelection` (default true) and no `channelId`, the
/// channel of the profile's last payment is used. `showSummaryScreen` is the answer of
/// `shouldShowViewControllerForPaymentSummary` (default true). Sandbox magic amounts:
/// `13.13` rejected, `14.14` stays processing, `15.15` completes 600 s later on the sandbox
/// clock, `16.16` fails the flow, `17.17` completes but cannot be re-read.
public enum Pay: DotpayMethod {
    public static let name = "dotpay.pay"

    /// The prepared payment and the channel.
    public struct Params: JSONModel, Equatable {
        /// From `dotpay.getChannelList`.
        public var paymentDetails: PaymentDetails
        /// The channel chosen.
        /// - Minimum: 1
        public var channelId: Int?
        /// Use the profile's last channel when none is chosen (`useLastChannelSelection`).
        public var useLastChannelSelection: Bool = true
        /// Whether the SDK shows its summary screen.
        public var showSummaryScreen: Bool = true
    }

    public typealias Result = PaymentSummary
    public static let mutates = true
    public static let errors = [
        DotpayErrorKind.paymentFailed, .channelNotFound, .channelUnavailable, .currencyNotSupported, .duplicateControl,
    ].map(\.descriptor)
}
