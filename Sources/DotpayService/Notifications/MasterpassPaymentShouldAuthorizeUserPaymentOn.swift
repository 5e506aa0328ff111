import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A buyer in the Masterpass wallet pays again: the app authorizes the payment (checks its PIN,
/// say) and answers with `dotpay.masterpass.didAuthorizeUser {requestId, successful}`
/// (`DPMasterpassPaymentDelegate masterpassPaymentShouldAuthorizeUserPaymentOn:`). Pushed to the
/// connection whose `dotpay.pay {masterpassAuthorization: true}` waits for it.
public enum MasterpassPaymentShouldAuthorizeUserPaymentOn: RPCNotification {
    public static let name = "dotpay.masterpassPaymentShouldAuthorizeUserPaymentOn"
    public typealias Payload = MasterpassQuestion
}
