import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Answers `dotpay.masterpassPaymentShouldAuthorizeUserPaymentOn`
/// (`DPMasterpassAuthorization didAuthorizeUser:andError:`): `successful: true` lets the payment
/// go on, `false` aborts it.
public enum MasterpassDidAuthorizeUser: DotpayMethod {
    public static let name = "dotpay.masterpass.didAuthorizeUser"
    public static let traits: MethodTraits = [.runsInline, .answersWaitingCall]
    public typealias Params = MasterpassAnswer
    public typealias Result = NoResult
    public static let errors = [DotpayErrorKind.noAuthorizationPending.descriptor]
}
