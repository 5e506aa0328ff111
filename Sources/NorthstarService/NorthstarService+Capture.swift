#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Authorize now, capture later: `northstar.captureAuthorization` on the sandbox (the
/// authorization kept with its order) or against Payments v2 over HTTP.
extension NorthstarService {
    /// `northstar.captureAuthorization`.
    public func captureAuthorization(_ params: CaptureAuthorization.Params, _ context: RequestContext) async throws
        -> AuthorizationCapture
    {
        let configuration = try await requireConfiguration(context)
        if let amount = params.amount { try refuse(problems(inMoney: amount, at: "/amount"), context) }
        if let api = try httpBackend(configuration, context) {
            return try await captureOverHTTP(params, api, context)
        }
        let captureID = newID("northstar.captureID", context)
        let now = context.now
        let outcome = try await book.capture(
            params.authorizationID, amount: params.amount, final: params.finalCapture, at: now,
            profile: context.profile)
        switch outcome {
        case .success(let (authorization, captured)):
            let base = "https://api-m.sandbox.payrpc.invalid/v2/payments"
            return AuthorizationCapture(
                captureID: captureID, authorizationID: authorization.authorizationID, orderID: authorization.orderID,
                status: "COMPLETED", amount: captured, finalCapture: authorization.closed, invoiceId: params.invoiceId,
                links: [
                    LinkDescription(href: "\(base)/captures/\(captureID)", rel: "self", method: "GET"),
                    LinkDescription(href: "\(base)/authorizations/\(authorization.authorizationID)", rel: "up", method: "GET"),
                ],
                createTime: now, updateTime: now)
        case .failure(let refusal):
            throw refused(refusal, params.authorizationID, context)
        }
    }

    /// The error a refused capture answers, as Payments v2 names it.
    func refused(_ refusal: CaptureRefusal, _ id: String, _ context: RequestContext) -> NorthstarError {
        switch refusal {
        case .notFound:
            error(
                .authorizationNotFound, context, field: "/authorizationID", issue: "INVALID_RESOURCE_ID",
                "no authorization \(id) on this profile")
        case .expired(let time):
            error(
                .authorizationExpired, context, field: "/authorizationID", issue: "AUTHORIZATION_EXPIRED",
                "the authorization expired at \(RFC3339.format(time)): an expired authorization cannot be captured")
        case .alreadyCaptured:
            error(
                .authorizationAlreadyCaptured, context, field: "/authorizationID", issue: "AUTHORIZATION_ALREADY_CAPTURED",
                "the authorization was captured in full or by a final capture")
        case .currencyMismatch(let currency):
            error(
                .unprocessable, context, field: "/amount/currencyCode", issue: "AUTH_CAPTURE_CURRENCY_MISMATCH",
                "the capture must be in the authorization's currency, \(currency)")
        case .exceeded(let remaining):
            error(
                .captureAmountExceeded, context, field: "/amount/value", issue: "MAX_CAPTURE_AMOUNT_EXCEEDED",
                "the capture asks for more than what remains of the authorization (\(remaining))")
        case .refusedByIssuer:
            error(
                .transactionRefused, context, field: "/authorizationID", issue: "TRANSACTION_REFUSED",
                "the capture was refused")
        }
    }
}
