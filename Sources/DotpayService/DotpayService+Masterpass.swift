import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

extension DotpayService {
    /// `dotpay.masterpass.didCreateAuthorization`.
    public func masterpassDidCreateAuthorization(_ params: MasterpassAnswer, _ context: RequestContext) throws -> NoResult {
        try answerMasterpass(params, kind: .createAuthorization, context)
    }

    /// `dotpay.masterpass.didAuthorizeUser`.
    public func masterpassDidAuthorizeUser(_ params: MasterpassAnswer, _ context: RequestContext) throws -> NoResult {
        try answerMasterpass(params, kind: .authorizeUser, context)
    }

    /// Hands the app's answer to the payment that waits for it.
    /// - Throws: ``DotpayError`` `noAuthorizationPending` when no payment of the profile waits for
    ///   that request id and kind.
    func answerMasterpass(_ params: MasterpassAnswer, kind: MasterpassAuthorizations.Kind, _ context: RequestContext) throws
        -> NoResult
    {
        let answer = MasterpassAuthorizations.Answer(successful: params.successful, error: params.error)
        guard masterpass.answer(params.requestId, profile: context.profile, kind: kind, answer) else {
            let question =
                kind == .createAuthorization
                ? "masterpassPaymentShouldCreateAuthorizationOn" : "masterpassPaymentShouldAuthorizeUserPaymentOn"
            throw DotpayError(.noAuthorizationPending, "no payment waits for an answer to \(question) \(params.requestId)")
        }
        return NoResult()
    }

    /// Asks the calling app for Masterpass authorization and waits for its answer: the wallet's
    /// authorization is created the first time (`masterpassPaymentShouldCreateAuthorizationOn`),
    /// the buyer is authorized on every later payment (`…ShouldAuthorizeUserPaymentOn`).
    /// - Throws: ``DotpayError`` `masterpassAuthorizationRefused` when the app answers `false`.
    func authorizeMasterpass(_ info: PaymentInfo, registered: Bool, _ context: RequestContext) async throws {
        let requestId = "mpa_" + context.randomString("dotpay.masterpassRequestId", length: 16, alphabet: "0123456789abcdef")
        let question = MasterpassQuestion(
            requestId: requestId, control: info.control ?? "", amount: info.amount, currency: info.currency)
        let kind: MasterpassAuthorizations.Kind = registered ? .authorizeUser : .createAuthorization
        let answer = try await masterpass.wait(for: requestId, profile: context.profile, kind: kind) {
            if registered {
                context.notify(MasterpassPaymentShouldAuthorizeUserPaymentOn.self, question)
            } else {
                context.notify(MasterpassPaymentShouldCreateAuthorizationOn.self, question)
            }
        }
        guard answer.successful else {
            let step = registered ? "authorizing the buyer's payment" : "creating the wallet's authorization"
            throw DotpayError(
                .masterpassAuthorizationRefused,
                "the app refused \(step) (\(requestId))" + (answer.error.map { ": \($0)" } ?? ""))
        }
        if !registered { try await updateSettings(context) { $0.masterpassRegistered = true } }
    }
}
