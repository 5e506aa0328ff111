#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import PayRPCStore
import PayRPCSecrets

extension NorthstarService {
    /// `northstar.executeOrder`, both forms.
    public func executeOrder(_ params: ExecuteOrderParams, _ context: RequestContext) async throws -> OrderResponse {
        if let api = try httpBackend(try await requireConfiguration(context), context) {
            return try await executeOrderOverHTTP(params, api, context)
        }
        switch params {
        case .create(let request): return try await createAndCapture(request, context)
        case .existing(let request): return try await execute(request, context)
        }
    }

    /// The create form: check, create, capture at once.
    private func createAndCapture(_ request: CreateAndExecuteOrder, _ context: RequestContext) async throws -> OrderResponse {
        try checkCreation(request, context)
        guard let source = try await paymentSource(card: request.card, nonce: request.nonce, at: "", context) else {
            throw error(.unprocessable, context, field: "/card", issue: "MISSING_PAYMENT_SOURCE", "give a card or a nonce")
        }
        let now = context.now
        var order = StoredOrder(
            orderID: newID("northstar.orderID", context), intent: .capture, status: .created,
            purchaseUnits: request.orderRequest.purchaseUnitList, card: source.summary, cardHash: source.hash,
            cardOutcome: source.outcome, transaction: nil, createTime: now, updateTime: now,
            expiresAt: now.addingTimeInterval(Double(sandbox.orderLifetimeSeconds)))
        try issuerRefusal(source.outcome, capturing: true, context)
        return try await pay(&order, asking3DSecure: source.outcome == .threeDSecure, context)
    }

    /// The order-id form: authorize or capture by the order's intent.
    private func execute(_ request: ExecuteExistingOrder, _ context: RequestContext) async throws -> OrderResponse {
        var order = try await payableOrder(request.orderID, context)
        let given = try await paymentSource(card: request.card, nonce: request.nonce, at: "", context)
        let approved = order.status == .approved
        guard
            let source = given
                ?? (approved
                    ? order.cardHash.map { _ in
                        CheckedCard(summary: order.card!, hash: order.cardHash!, outcome: order.cardOutcome ?? .approve)
                    } : nil)
        else {
            throw error(
                .unprocessable, context, field: "/card", issue: "MISSING_PAYMENT_SOURCE",
                "the order was not approved with a card: give a card or a nonce")
        }
        // The card that completed 3-D Secure for this order does not need it again.
        let authenticated = approved && source.hash == order.cardHash
        try issuerRefusal(source.outcome, capturing: order.intent == .capture, context)
        order.take(source, at: context.now)
        return try await pay(&order, asking3DSecure: source.outcome == .threeDSecure && !authenticated, context)
    }

    /// `northstar.validate`: the card is accepted for the order, which becomes `APPROVED`.
    public func validate(_ params: Validate.Params, _ context: RequestContext) async throws -> OrderResponse {
        if let api = try httpBackend(try await requireConfiguration(context), context) {
            return try await validateOverHTTP(params, api, context)
        }
        var order = try await payableOrder(params.orderID, context)
        guard let source = try await paymentSource(card: params.card, nonce: params.nonce, at: "", context) else {
            throw error(.unprocessable, context, field: "/card", issue: "MISSING_PAYMENT_SOURCE", "give a card or a nonce")
        }
        try issuerRefusal(source.outcome, capturing: false, context)
        order.take(source, at: context.now)
        order.status = source.outcome == .threeDSecure ? .payerActionRequired : .approved
        try await save(order, context)
        if order.status == .payerActionRequired { throw payerActionRequired(order, context) }
        return order.response
    }

    /// `northstar.tokenizeCard`.
    public func tokenizeCard(_ params: TokenizeCard.Params, _ context: RequestContext) async throws -> TokenizeCard.Result {
        _ = try await requireConfiguration(context)
        let checked = try check(params.card, at: "/card", context)
        let nonce =
            "tokencc_" + context.randomString("northstar.nonce", length: 24, alphabet: "abcdefghijklmnopqrstuvwxyz0123456789")
        let expiresAt = context.now.addingTimeInterval(Double(sandbox.nonceLifetimeSeconds))
        let stored = StoredNonce(
            card: checked.summary, cardHash: checked.hash, outcome: checked.outcome,
            expiresAt: expiresAt, used: false)
        try await book.saveNonce(stored, key: try secrets.keyedHash(nonce, context: "northstar.nonce"), profile: context.profile)
        return TokenizeCard.Result(nonce: nonce, card: checked.summary, expiresAt: expiresAt)
    }

    // MARK: Sandbox helpers

    /// `sandbox.northstar.createOrder`.
    public func sandboxCreateOrder(_ params: SandboxCreateOrder.Params, _ context: RequestContext) async throws -> OrderResponse {
        try refuse(problems(in: params.purchaseUnits, at: "/purchaseUnits"), context)
        if let configuration = try? await requireConfiguration(context), let api = try httpBackend(configuration, context) {
            let body = WireOrder(
                intent: params.intent.rawValue, purchaseUnits: OrdersMapping.purchaseUnits(params.purchaseUnits))
            return try order(
                from: await api.call("POST", "v2/checkout/orders", body: body, requestId: try requestId(context)), context)
        }
        let now = context.now
        let order = StoredOrder(
            orderID: newID("northstar.orderID", context), intent: params.intent, status: .created,
            purchaseUnits: params.purchaseUnits, card: nil, cardHash: nil, cardOutcome: nil, transaction: nil,
            createTime: now, updateTime: now, expiresAt: now.addingTimeInterval(Double(sandbox.orderLifetimeSeconds)))
        try await save(order, context)
        return order.response
    }

    /// `sandbox.northstar.getOrder`.
    public func sandboxGetOrder(_ params: SandboxGetOrder.Params, _ context: RequestContext) async throws -> OrderResponse {
        if let configuration = try? await requireConfiguration(context), let api = try httpBackend(configuration, context) {
            return try order(
                from: await api.call("GET", "v2/checkout/orders/\(params.orderID)", body: nil, requestId: nil), context)
        }
        return try await order(params.orderID, context).response
    }

    /// `sandbox.northstar.completePayerAction`.
    public func sandboxCompletePayerAction(
        _ params: SandboxCompletePayerAction.Params,
        _ context: RequestContext
    ) async throws -> OrderResponse {
        if let configuration = try? await requireConfiguration(context), try httpBackend(configuration, context) != nil {
            throw error(
                .unprocessable, context, field: "/orderID", issue: "NOT_AVAILABLE_OVER_HTTP",
                "with an Orders v2 API the buyer completes 3-D Secure at the payer-action link itself")
        }
        var order = try await order(params.orderID, context)
        guard order.status == .payerActionRequired else {
            throw error(
                .unprocessable, context, field: "/orderID", issue: "NO_PAYER_ACTION_PENDING",
                "the order is \(order.status.rawValue): no payer action is pending")
        }
        order.status = .approved
        order.updateTime = context.now
        try await save(order, context)
        return order.response
    }

    /// `sandbox.northstar.voidOrder`.
    public func sandboxVoidOrder(_ params: SandboxVoidOrder.Params, _ context: RequestContext) async throws -> OrderResponse {
        if let configuration = try? await requireConfiguration(context), try httpBackend(configuration, context) != nil {
            throw error(
                .unprocessable, context, field: "/orderID", issue: "NOT_AVAILABLE_OVER_HTTP",
                "Orders v2 has no void for an order; an unpaid order expires at PayPal")
        }
        var order = try await order(params.orderID, context)
        guard order.status != .completed else { throw alreadyPaid(order, context) }
        order.status = .voided
        order.updateTime = context.now
        try await save(order, context)
        return order.response
    }

    // MARK: Helpers

    /// The order `id` of the profile; `INVALID_RESOURCE_ID` when there is none.
    func order(_ id: String, _ context: RequestContext) async throws -> StoredOrder {
        guard let order = try await book.order(id, profile: context.profile) else {
            throw error(
                .orderNotFound, context, field: "/orderID", issue: "INVALID_RESOURCE_ID",
                "no order \(id) on this profile")
        }
        return order
    }

    /// The order, when it can still be paid: not completed, not voided, not expired.
    func payableOrder(_ id: String, _ context: RequestContext) async throws -> StoredOrder {
        let order = try await order(id, context)
        switch order.status {
        case .completed:
            throw alreadyPaid(order, context)
        case .voided:
            throw error(.orderExpired, context, field: "/orderID", issue: "ORDER_EXPIRED", "the order was voided")
        default:
            guard context.now < order.expiresAt else {
                throw error(
                    .orderExpired, context, field: "/orderID", issue: "ORDER_EXPIRED",
                    "the order expired at \(RFC3339.format(order.expiresAt)) without being paid")
            }
            return order
        }
    }

    /// `ORDER_ALREADY_CAPTURED` for a paid `CAPTURE` order, `ORDER_ALREADY_AUTHORIZED` for an
    /// `AUTHORIZE` one (whose authorization `northstar.captureAuthorization` captures), as Orders v2
    /// answers.
    func alreadyPaid(_ order: StoredOrder, _ context: RequestContext) -> NorthstarError {
        if order.intent == .capture {
            return error(
                .orderAlreadyCaptured, context, field: "/orderID", issue: "ORDER_ALREADY_CAPTURED",
                "the order was already captured")
        }
        return error(
            .orderAlreadyAuthorized, context, field: "/orderID", issue: "ORDER_ALREADY_AUTHORIZED",
            "the order was already authorized: capture its authorization \(order.transaction?.id ?? "") with northstar.captureAuthorization"
        )
    }

    /// Throws what the sandbox's issuer says about an outcome that refuses the payment.
    func issuerRefusal(_ outcome: CardOutcome, capturing: Bool, _ context: RequestContext) throws(NorthstarError) {
        switch outcome {
        case .decline:
            throw error(
                .instrumentDeclined, context, field: "/card", issue: "INSTRUMENT_DECLINED",
                "the card issuer declined the payment")
        case .processorError:
            throw error(
                .processorError, context, issue: "INTERNAL_SERVICE_ERROR",
                "the processor failed; try again later")
        case .captureFails where capturing:
            throw error(
                .transactionRefused, context, field: "/card", issue: "TRANSACTION_REFUSED",
                "the capture was refused")
        default:
            return
        }
    }

    /// `PAYER_ACTION_REQUIRED` with the order's `payer-action` link, and the order's id and status in
    /// `data`, so a caller goes on without reading the message.
    func payerActionRequired(_ order: StoredOrder, _ context: RequestContext) -> NorthstarError {
        payerActionRequired(orderID: order.orderID, links: order.response.links.filter { $0.rel == "payer-action" }, context)
    }

    /// `PAYER_ACTION_REQUIRED` for the order `orderID` (the sandbox's or the API's), with `links`.
    func payerActionRequired(orderID: String, links: [LinkDescription], _ context: RequestContext) -> NorthstarError {
        let problem = error(
            .payerActionRequired, context, field: "/card", issue: "PAYER_ACTION_REQUIRED",
            "the buyer must complete 3-D Secure at the payer-action link, then execute order \(orderID) again",
            links: links)
        var data = problem.data
        data.orderID = orderID
        data.orderStatus = .payerActionRequired
        return NorthstarError(.payerActionRequired, data: data)
    }

    /// The create form's checks, for the sandbox and an Orders v2 API alike: intent CAPTURE, and the
    /// purchase units as Orders v2 checks them.
    func checkCreation(_ request: CreateAndExecuteOrder, _ context: RequestContext) throws(NorthstarError) {
        if let intent = request.orderRequest.intent, intent != .capture {
            throw error(
                .unprocessable, context, field: "/orderRequest/intent", issue: "INTENT_NOT_SUPPORTED",
                "an order created and executed at once must have intent CAPTURE")
        }
        try refuse(problems(in: request.orderRequest.purchaseUnitList, at: "/orderRequest/purchaseUnitList"), context)
    }

    /// Pays the order (saved): or, when the card asks for 3-D Secure, saves it waiting for the
    /// payer's action and throws `PAYER_ACTION_REQUIRED`.
    func pay(_ order: inout StoredOrder, asking3DSecure: Bool, _ context: RequestContext) async throws -> OrderResponse {
        if asking3DSecure {
            order.status = .payerActionRequired
            try await save(order, context)
            throw payerActionRequired(order, context)
        }
        let authorization = complete(&order, context)
        try await book.save(order, authorization: authorization, profile: context.profile)
        return order.response
    }

    /// Marks the order paid: a capture or an authorization of its total. An authorization is also
    /// returned as the sandbox keeps it, to be captured until it expires.
    func complete(_ order: inout StoredOrder, _ context: RequestContext) -> StoredAuthorization? {
        let capture = order.intent == .capture
        let now = context.now
        let total = order.total
        let id = newID(capture ? "northstar.captureID" : "northstar.authorizationID", context)
        let expiresAt = capture ? nil : now.addingTimeInterval(Double(sandbox.authorizationLifetimeSeconds))
        order.transaction = OrderTransaction(
            id: id, kind: order.intent, status: capture ? "COMPLETED" : "CREATED",
            amount: total, expiresAt: expiresAt)
        order.status = .completed
        order.updateTime = now
        guard let expiresAt else { return nil }
        return StoredAuthorization(
            authorizationID: id, orderID: order.orderID, amount: total, captured: .zero, closed: false,
            cardOutcome: order.cardOutcome ?? .approve, expiresAt: expiresAt)
    }

    /// Stores the order; durable when it returns.
    func save(_ order: StoredOrder, _ context: RequestContext) async throws {
        try await book.save(order, profile: context.profile)
    }
}
