import Foundation
import PayRPCJSON
import PayRPCServiceKit

/// Between the SDK's shapes and Orders v2's wire models: requests out, orders and errors back.
enum OrdersMapping {
    /// `purchase_units` of a request.
    static func purchaseUnits(_ units: [PurchaseUnit]) -> [WirePurchaseUnit] {
        units.map { unit in
            let amount = unit.amount
            let breakdown = amount.breakdown.map { parts in
                WireBreakdown(
                    itemTotal: money(parts.itemTotal), shipping: money(parts.shipping), handling: money(parts.handling),
                    taxTotal: money(parts.taxTotal), insurance: money(parts.insurance),
                    shippingDiscount: money(parts.shippingDiscount), discount: money(parts.discount))
            }
            return WirePurchaseUnit(
                referenceId: unit.referenceId,
                amount: WireAmount(currencyCode: amount.currencyCode, value: amount.value.description, breakdown: breakdown),
                description: unit.description, customId: unit.customId, invoiceId: unit.invoiceId)
        }
    }

    static func money(_ money: OrderMoney?) -> WireMoney? {
        money.map { WireMoney(currencyCode: $0.currencyCode, value: $0.value.description) }
    }

    /// `payment_source` for a card (the card's secrets go to the API and nowhere else).
    static func paymentSource(_ card: Card) -> WirePaymentSource {
        let address = card.billingAddress.map { address in
            WireAddress(
                addressLine1: address.addressLine1, addressLine2: address.addressLine2, adminArea1: address.adminArea1,
                adminArea2: address.adminArea2, postalCode: address.postalCode, countryCode: address.countryCode)
        }
        return WirePaymentSource(
            card: WireCard(
                number: card.number, expiry: card.expiry, securityCode: card.securityCode,
                name: card.cardholderName, billingAddress: address))
    }

    /// An Orders v2 order as the SDK's `OrderResponse`; nil when it is not one.
    static func order(_ body: WireOrder) -> OrderResponse? {
        guard let id = body.id, let intent = body.intent.flatMap(OrderIntent.init(rawValue:)),
            let status = body.status.flatMap(OrderStatus.init(rawValue:))
        else { return nil }
        let units = (body.purchaseUnits ?? []).compactMap(purchaseUnit)
        var card: CardSummary?
        if let source = body.paymentSource?.card, let last = source.lastDigits,
            let brand = CardBrand(rawValue: source.brand ?? "")
        {
            card = CardSummary(lastDigits: last, brand: brand, expiry: source.expiry)
        }
        let created = date(body.createTime) ?? Date()
        return OrderResponse(
            orderID: id, intent: intent, status: status, purchaseUnits: units, card: card,
            transaction: transaction(body.purchaseUnits ?? [], intent), links: links(body.links), createTime: created,
            updateTime: date(body.updateTime) ?? created,
            expiresAt: date(body.expirationTime) ?? created.addingTimeInterval(10_800))
    }

    /// The payment the order's execution made: every purchase unit's capture (or authorization,
    /// the order's intent's kind first), its amount the sum of the units' (the order's total), its
    /// id and status the first unit's.
    static func transaction(_ units: [WirePurchaseUnit], _ intent: OrderIntent) -> OrderTransaction? {
        for kind in intent == .capture ? [OrderIntent.capture, .authorize] : [.authorize, .capture] {
            let payments = units.compactMap {
                kind == .capture ? $0.payments?.captures?.first : $0.payments?.authorizations?.first
            }
            guard let first = payments.first, let id = first.id, let amount = money(first.amount) else { continue }
            var total = amount.value
            for payment in payments.dropFirst() {
                if let more = money(payment.amount), more.currencyCode == amount.currencyCode {
                    total = total.adding(more.value) ?? total
                }
            }
            return OrderTransaction(
                id: id, kind: kind, status: first.status ?? "",
                amount: OrderMoney(currencyCode: amount.currencyCode, value: total),
                expiresAt: kind == .authorize ? date(first.expirationTime) : nil)
        }
        return nil
    }

    /// A Payments v2 capture as the SDK's ``AuthorizationCapture``; nil when it is not one.
    static func capture(_ body: WirePayment, of authorizationID: String, final: Bool, invoiceId: String?) -> AuthorizationCapture?
    {
        guard let id = body.id, let amount = money(body.amount) else { return nil }
        let created = date(body.createTime) ?? Date()
        return AuthorizationCapture(
            captureID: id, authorizationID: body.supplementaryData?.relatedIds?.authorizationId ?? authorizationID,
            orderID: body.supplementaryData?.relatedIds?.orderId, status: body.status ?? "",
            amount: amount, finalCapture: body.finalCapture ?? final, invoiceId: body.invoiceId ?? invoiceId,
            links: links(body.links), createTime: created, updateTime: date(body.updateTime) ?? created)
    }

    static func purchaseUnit(_ unit: WirePurchaseUnit) -> PurchaseUnit? {
        guard let code = unit.amount?.currencyCode, let value = unit.amount?.value.flatMap(Amount.init) else { return nil }
        return PurchaseUnit(
            referenceId: unit.referenceId,
            amount: AmountWithBreakdown(currencyCode: code, value: value, breakdown: nil),
            description: unit.description, customId: unit.customId, invoiceId: unit.invoiceId)
    }

    static func money(_ amount: WireMoney?) -> OrderMoney? {
        guard let code = amount?.currencyCode, let value = amount?.value.flatMap(Amount.init) else { return nil }
        return OrderMoney(currencyCode: code, value: value)
    }

    static func date(_ text: String?) -> Date? { text.flatMap(RFC3339.parse) }

    static func links(_ links: [WireLink]?) -> [LinkDescription] {
        (links ?? []).compactMap { link in
            guard let href = link.href, let rel = link.rel else { return nil }
            return LinkDescription(href: href, rel: rel, method: link.method ?? "GET")
        }
    }

    /// An Orders v2 (or Payments v2) error answer as a northstar error: the kind its first issue
    /// (or status) names, with the API's own name, message, debug id, details (with their
    /// `location`) and links. A 404 is `notFound` (the order, or the authorization). A 5xx is not
    /// final for an idempotency key: the API may have acted, and a repeat with the same key asks
    /// it again with the same `PayPal-Request-Id`.
    static func error(status: Int, body: WireError, notFound: NorthstarErrorKind = .orderNotFound) -> NorthstarError {
        let details = (body.details ?? []).map { detail in
            ErrorDetail(
                field: detail.field, value: detail.value?.stringValue, location: detail.location,
                issue: detail.issue ?? "UNKNOWN", description: detail.description ?? "")
        }
        let issue = details.first?.issue ?? ""
        let kind: NorthstarErrorKind
        switch (status, issue) {
        case (_, "INSTRUMENT_DECLINED"): kind = .instrumentDeclined
        case (_, "CARD_EXPIRED"): kind = .cardExpired
        case (_, "PAYER_ACTION_REQUIRED"): kind = .payerActionRequired
        case (_, "TRANSACTION_REFUSED"): kind = .transactionRefused
        case (_, "ORDER_ALREADY_CAPTURED"): kind = .orderAlreadyCaptured
        case (_, "ORDER_ALREADY_AUTHORIZED"): kind = .orderAlreadyAuthorized
        case (_, "ORDER_EXPIRED"): kind = .orderExpired
        case (_, "AUTHORIZATION_EXPIRED"): kind = .authorizationExpired
        case (_, "AUTHORIZATION_ALREADY_CAPTURED"): kind = .authorizationAlreadyCaptured
        case (_, "MAX_CAPTURE_AMOUNT_EXCEEDED"): kind = .captureAmountExceeded
        case (404, _): kind = notFound
        case (401, _), (403, _): kind = .notConfigured
        case (500..., _): kind = .processorError
        default: kind = .unprocessable
        }
        let links = links(body.links)
        let shown =
            details.isEmpty
            ? [ErrorDetail(issue: body.name ?? kind.rawValue, description: body.message ?? kind.message)]
            : details
        let error = NorthstarError(
            kind,
            data: NorthstarErrorData(
                type: kind.rawValue, name: body.name ?? kind.name, httpStatus: status,
                message: body.message ?? kind.message, debugId: body.debugId ?? "",
                details: shown, links: links.isEmpty ? nil : links))
        return status >= 500 ? error.notFinal() : error
    }
}
