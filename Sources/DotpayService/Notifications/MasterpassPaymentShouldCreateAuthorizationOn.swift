import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The buyer is joining the Masterpass wallet during a payment: the app defines its authorization
/// (a PIN of its own, say) and answers with `dotpay.masterpass.didCreateAuthorization {requestId,
/// successful}` (`DPMasterpassPaymentDelegate masterpassPaymentShouldCreateAuthorizationOn:`).
/// Pushed to the connection whose `dotpay.pay {masterpassAuthorization: true}` waits for it.
public enum MasterpassPaymentShouldCreateAuthorizationOn: RPCNotification {
    public static let name = "dotpay.masterpassPaymentShouldCreateAuthorizationOn"
    public typealias Payload = MasterpassQuestion
}
