import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Answers `dotpay.masterpassPaymentShouldCreateAuthorizationOn`
/// (`DPMasterpassAuthorization didCreateAuthorization:andError:`): `successful: true` lets the
/// buyer join the wallet and the payment go on, `false` aborts both.
public enum MasterpassDidCreateAuthorization: DotpayMethod {
    public static let name = "dotpay.masterpass.didCreateAuthorization"
    public static let traits: MethodTraits = [.runsInline, .answersWaitingCall]
    public typealias Params = MasterpassAnswer
    public typealias Result = NoResult
    public static let errors = [DotpayErrorKind.noAuthorizationPending.descriptor]
}
