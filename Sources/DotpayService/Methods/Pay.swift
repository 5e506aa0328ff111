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
/// clock, `16.16` fails the flow, `17.17` completes but cannot be re-read, `18.18`
/// `processing_realization_waiting`, `19.19` `processing_realization`.
///
/// A card channel's form takes the buyer's card (`cardInfo`); with `rememberCard` (the form's
/// 1Click consent) a completed payment remembers the card, in the external customer's context
/// when one is set, and `dotpay.didRegisterNewCreditCard` follows. The 1Click channel is not
/// paid through the form: `dotpay.oneClickPayment` pays with a remembered card. With
/// `masterpassAuthorization` (the app set `masterpassPaymentDelegate`), a Masterpass payment asks
/// the calling connection first: `dotpay.masterpassPaymentShouldCreateAuthorizationOn` the first
/// time the buyer joins the wallet, `dotpay.masterpassPaymentShouldAuthorizeUserPaymentOn` on
/// every later payment; the call waits for `dotpay.masterpass.didCreateAuthorization` /
/// `dotpay.masterpass.didAuthorizeUser` with the notification's `requestId`, and `successful:
/// false` aborts the payment (`masterpassAuthorizationRefused`). When the payment has a `urlc`,
/// its final status is posted there (see `sandbox.dotpay.urlcNotifications`).
public enum Pay: DotpayMethod {
    public static let name = "dotpay.pay"
    public static let traits: MethodTraits = [.mutates]

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
        /// The card the buyer types in a card channel's form (not the 1Click channel's).
        public var cardInfo: PaymentCardInfo?
        /// The form's 1Click consent: remember `cardInfo` once the payment completes.
        public var rememberCard: Bool = false
        /// Whether the app implements `DPMasterpassPaymentDelegate`: a Masterpass payment then
        /// asks it for authorization and waits for its answer.
        public var masterpassAuthorization: Bool = false
    }

    public typealias Result = PaymentSummary
    public static let errors = [
        DotpayErrorKind.paymentFailed, .channelNotFound, .channelUnavailable, .currencyNotSupported, .cardRefused,
        .oneClickDisabled, .masterpassAuthorizationRefused,
    ].map(\.descriptor)
    public static var notifications: [any RPCNotification.Type] {
        [
            DidRegisterNewCreditCard.self, DidChangeDefaultOneClickPaymentCard.self,
            MasterpassPaymentShouldCreateAuthorizationOn.self, MasterpassPaymentShouldAuthorizeUserPaymentOn.self,
            UrlcDeliveryFailed.self,
        ]
    }
}
