import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// The same methods against an Orders v2 API over HTTP (a profile configured with `live` or a base
/// URL). The checks Orders v2 makes before the issuer (purchase units, card rules) run here first,
/// so both backends refuse bad input the same way; the API decides the rest.
extension NorthstarService {
    /// The profile's HTTP client when its configuration names an HTTP environment; nil for the
    /// sandbox.
    /// - Throws: `CLIENT_NOT_CONFIGURED` when the client's secrets were lost with a restart.
    func httpBackend(_ configuration: ClientConfiguration, _ context: RequestContext) throws(NorthstarError) -> OrdersAPI? {
        guard configuration.environment != "sandbox" else { return nil }
        guard let client = apis.client(profile: context.profile) else {
            throw error(.notConfigured, context, field: "clientSecret", issue: "CREDENTIALS_MISSING",
                        "the HTTP backend's credentials are kept in memory only: call northstar.configure again")
        }
        return client
    }

    /// The `PayPal-Request-Id` of a call: its idempotency key, or a new id from the seeded stream.
    func requestId(_ context: RequestContext) -> String {
        context.meta.idempotencyKey ?? context.randomString("northstar.requestId", length: 24,
                                                             alphabet: "abcdefghijklmnopqrstuvwxyz0123456789")
    }

    /// The order an API answer carries, or the error it stands for.
    func order(from answer: OrdersAPI.Answer, _ context: RequestContext) throws(NorthstarError) -> OrderResponse {
        switch answer {
        case .ok(let answer):
            guard let order = (try? answer.decode(WireOrder.self)).flatMap(OrdersMapping.order) else {
                throw error(.processorError, context, issue: "INVALID_RESPONSE", "the Orders v2 API answered something that is not an order")
            }
            return order
        case .failed(let status, let body):
            throw OrdersMapping.error(status: status, body: body)
        case .unreachable(let reason):
            throw error(.backendUnavailable, context, issue: "BACKEND_UNAVAILABLE", "the Orders v2 API did not answer: \(reason)")
        }
    }

    /// `executeOrder` against the API.
    func executeOrderOverHTTP(_ params: ExecuteOrderParams, _ api: OrdersAPI, _ context: RequestContext) async throws -> OrderResponse {
        switch params {
        case .create(let request):
            try checkCreation(request, context)
            let card = try httpCard(request.card, request.nonce, context)
            guard let card else {
                throw error(.unprocessable, context, field: "/card", issue: "MISSING_PAYMENT_SOURCE", "give a card")
            }
            let body = WireOrderRequest(intent: "CAPTURE", purchaseUnits: OrdersMapping.purchaseUnits(request.orderRequest.purchaseUnitList),
                                        paymentSource: OrdersMapping.paymentSource(card))
            return try order(from: await api.call("POST", "v2/checkout/orders", body: body, requestId: requestId(context)), context)
        case .existing(let request):
            let card = try httpCard(request.card, request.nonce, context)
            let current = try order(from: await api.call("GET", "v2/checkout/orders/\(request.orderID)", body: nil, requestId: nil), context)
            let action = current.intent == .capture ? "capture" : "authorize"
            let body = WireOrderRequest(paymentSource: card.map(OrdersMapping.paymentSource))
            return try order(from: await api.call("POST", "v2/checkout/orders/\(request.orderID)/\(action)", body: body,
                                                  requestId: requestId(context)), context)
        }
    }

    /// `validate` against the API.
    func validateOverHTTP(_ params: Validate.Params, _ api: OrdersAPI, _ context: RequestContext) async throws -> OrderResponse {
        guard let card = try httpCard(params.card, params.nonce, context) else {
            throw error(.unprocessable, context, field: "/card", issue: "MISSING_PAYMENT_SOURCE", "give a card")
        }
        return try order(from: await api.call("POST", "v2/checkout/orders/\(params.orderID)/validate-payment-method",
                                              body: WireOrderRequest(paymentSource: OrdersMapping.paymentSource(card)),
                                              requestId: requestId(context)), context)
    }

    /// The card of a call to the API, checked by the card rules first; nonces are the BT
    /// sandbox's and cannot go to an Orders v2 API.
    func httpCard(_ card: Card?, _ nonce: String?, _ context: RequestContext) throws -> Card? {
        if nonce != nil {
            throw error(.unprocessable, context, field: "/nonce", issue: "NONCE_NOT_SUPPORTED",
                        "nonces from northstar.tokenizeCard pay on the built-in sandbox only; give the card")
        }
        if let card { _ = try check(card, at: "/card", context) }
        return card
    }
}
