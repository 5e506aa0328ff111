import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import PayRPCStore
import PayRPCSecrets

/// The same methods against an Orders v2 API over HTTP (a profile configured with `live` or a base
/// URL). The checks Orders v2 makes before the issuer (purchase units, card rules) run here first,
/// so both backends refuse bad input the same way; the API decides the rest.
extension NorthstarService {
    /// The profile's HTTP client when its configuration names an HTTP environment; nil for the
    /// sandbox. Made from the stored configuration (its secrets unsealed) the first time this
    /// gateway needs it and again whenever the configuration changes, through this gateway or
    /// another on the same store; kept meanwhile, with the OAuth2 token it fetched.
    /// - Throws: `CLIENT_NOT_CONFIGURED` when the stored configuration holds no secret this server
    ///   can open (one made by a version that kept secrets in memory only).
    func httpBackend(_ configuration: ClientConfiguration, _ context: RequestContext) throws(NorthstarError) -> OrdersAPI? {
        guard configuration.environment != "sandbox" else { return nil }
        return try apis.client(profile: context.profile, for: configuration) { () throws(NorthstarError) -> OrdersAPI in
            let secret = configuration.sealedClientSecret.flatMap {
                secrets.unseal($0, context: ClientConfiguration.clientSecretContext)
            }
            let token = configuration.sealedAccessToken.flatMap {
                secrets.unseal($0, context: ClientConfiguration.accessTokenContext)
            }
            let base = configuration.environment == "live" ? "https://api-m.paypal.com" : configuration.environment
            guard secret != nil || token != nil, let url = URL(string: base) else {
                throw error(
                    .notConfigured, context, field: "clientSecret", issue: "CREDENTIALS_MISSING",
                    "the stored configuration has no credentials this server can open: call northstar.configure again")
            }
            return OrdersAPI(
                baseURL: url, clientID: configuration.clientID, secret: secret, accessToken: token, timeout: requestTimeout)
        }
    }

    /// The `PayPal-Request-Id` of a call: its idempotency key (the keyed hash of it when it is not
    /// one Orders v2 takes: more than 108 characters, or not printable ASCII; the same key always
    /// gives the same id), or a new id from the seeded stream.
    func requestId(_ context: RequestContext) throws -> String {
        guard let key = context.meta.idempotencyKey else {
            return context.randomString("northstar.requestId", length: 24, alphabet: "abcdefghijklmnopqrstuvwxyz0123456789")
        }
        if key.utf8.count <= 108, key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) { return key }
        return try secrets.keyedHash(key, context: "northstar.requestId")
    }

    /// The order an API answer carries, or the error it stands for (a 422 `PAYER_ACTION_REQUIRED`
    /// about `orderID` with the order's id and status in `data`, as on the sandbox).
    func order(from answer: OrdersAPI.Answer, about orderID: String? = nil, _ context: RequestContext) throws(NorthstarError)
        -> OrderResponse
    {
        do throws(NorthstarError) {
            return try decoded(answer, WireOrder.self, notFound: .orderNotFound, context, OrdersMapping.order)
        } catch  where error.kind == .payerActionRequired && orderID != nil {
            var data = error.data
            data.orderID = orderID
            data.orderStatus = .payerActionRequired
            throw NorthstarError(.payerActionRequired, data: data)
        }
    }

    /// The order an execution's answer carries (``order(from:about:_:)``). An order waiting for the
    /// buyer (`PAYER_ACTION_REQUIRED`, what Orders v2 answers for a card that asks for 3-D Secure)
    /// is the `PAYER_ACTION_REQUIRED` error, as on the sandbox, with the order's id and link.
    func executed(_ answer: OrdersAPI.Answer, about orderID: String? = nil, _ context: RequestContext) throws(NorthstarError)
        -> OrderResponse
    {
        let order = try order(from: answer, about: orderID, context)
        if order.status == .payerActionRequired {
            throw payerActionRequired(orderID: order.orderID, links: order.links.filter { $0.rel == "payer-action" }, context)
        }
        return order
    }

    /// The answer's body read as `T` and mapped, or the error the answer stands for: its own
    /// error body's, `BACKEND_UNAVAILABLE` when the API did not answer, and a processor error when
    /// the body is not what was asked for. Both of the last are not final for an idempotency key:
    /// the API may have acted, and a repeat asks it again with the same `PayPal-Request-Id`.
    func decoded<T: JSONDecodable, R>(
        _ answer: OrdersAPI.Answer, _ type: T.Type, notFound: NorthstarErrorKind,
        _ context: RequestContext, _ map: (T) -> R?
    ) throws(NorthstarError) -> R {
        switch answer {
        case .ok(let answer):
            guard let value = (try? answer.decode(T.self)).flatMap(map) else {
                throw error(
                    .processorError, context, issue: "INVALID_RESPONSE",
                    "the API answered \(answer.status) with a body that does not read as what was asked for"
                ).notFinal()
            }
            return value
        case .failed(let status, let body):
            throw OrdersMapping.error(status: status, body: body, notFound: notFound)
        case .unreachable(let reason):
            throw error(.backendUnavailable, context, issue: "BACKEND_UNAVAILABLE", "the Orders v2 API did not answer: \(reason)")
        }
    }

    /// `executeOrder` against the API.
    func executeOrderOverHTTP(_ params: ExecuteOrderParams, _ api: OrdersAPI, _ context: RequestContext) async throws
        -> OrderResponse
    {
        switch params {
        case .create(let request):
            try checkCreation(request, context)
            let card = try httpCard(request.card, request.nonce, context)
            guard let card else {
                throw error(.unprocessable, context, field: "/card", issue: "MISSING_PAYMENT_SOURCE", "give a card")
            }
            let body = WireOrder(
                intent: "CAPTURE", purchaseUnits: OrdersMapping.purchaseUnits(request.orderRequest.purchaseUnitList),
                paymentSource: OrdersMapping.paymentSource(card))
            return try executed(
                await api.call("POST", "v2/checkout/orders", body: body, requestId: try requestId(context)), context)
        case .existing(let request):
            let card = try httpCard(request.card, request.nonce, context)
            let current = try order(
                from: await api.call("GET", "v2/checkout/orders/\(request.orderID)", body: nil, requestId: nil),
                about: request.orderID, context)
            let action = current.intent == .capture ? "capture" : "authorize"
            let body = WireOrder(paymentSource: card.map(OrdersMapping.paymentSource))
            return try executed(
                await api.call(
                    "POST", "v2/checkout/orders/\(request.orderID)/\(action)", body: body,
                    requestId: try requestId(context)), about: request.orderID, context)
        }
    }

    /// `validate` against the API: `confirm-payment-source` with the card, Orders v2's published
    /// call that attaches a card to an order (`APPROVED`), since `validate-payment-method` is
    /// internal at PayPal.
    func validateOverHTTP(_ params: Validate.Params, _ api: OrdersAPI, _ context: RequestContext) async throws -> OrderResponse {
        guard let card = try httpCard(params.card, params.nonce, context) else {
            throw error(.unprocessable, context, field: "/card", issue: "MISSING_PAYMENT_SOURCE", "give a card")
        }
        return try executed(
            await api.call(
                "POST", "v2/checkout/orders/\(params.orderID)/confirm-payment-source",
                body: WireOrder(paymentSource: OrdersMapping.paymentSource(card)),
                requestId: try requestId(context)), about: params.orderID, context)
    }

    /// `captureAuthorization` against Payments v2.
    func captureOverHTTP(
        _ params: CaptureAuthorization.Params, _ api: OrdersAPI,
        _ context: RequestContext
    ) async throws -> AuthorizationCapture {
        let body = WireCaptureRequest(
            amount: OrdersMapping.money(params.amount), invoiceId: params.invoiceId,
            finalCapture: params.finalCapture)
        let answer = await api.call(
            "POST", "v2/payments/authorizations/\(params.authorizationID)/capture", body: body,
            requestId: try requestId(context), answer: WirePayment.self)
        return try decoded(answer, WirePayment.self, notFound: .authorizationNotFound, context) {
            OrdersMapping.capture($0, of: params.authorizationID, final: params.finalCapture, invoiceId: params.invoiceId)
        }
    }

    /// The card of a call to the API, checked by the card rules first; nonces are the BT
    /// sandbox's and cannot go to an Orders v2 API.
    func httpCard(_ card: Card?, _ nonce: String?, _ context: RequestContext) throws -> Card? {
        if nonce != nil {
            throw error(
                .unprocessable, context, field: "/nonce", issue: "NONCE_NOT_SUPPORTED",
                "nonces from northstar.tokenizeCard pay on the built-in sandbox only; give the card")
        }
        if let card { _ = try check(card, at: "/card", context) }
        return card
    }
}
