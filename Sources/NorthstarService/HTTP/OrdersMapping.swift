import Foundation
import PayRPCJSON

/// Between the SDK's shapes and Orders v2's snake_case wire format: requests out, orders and
/// errors back.
enum OrdersMapping {
    /// `purchase_units` of a request.
    static func purchaseUnits(_ units: [PurchaseUnit]) -> [[String: Any]] {
        units.map { unit in
            var amount: [String: Any] = ["currency_code": unit.amount.currencyCode, "value": unit.amount.value.description]
            if let breakdown = unit.amount.breakdown {
                var parts: [String: Any] = [:]
                let named: [(String, OrderMoney?)] = [
                    ("item_total", breakdown.itemTotal), ("shipping", breakdown.shipping), ("handling", breakdown.handling),
                    ("tax_total", breakdown.taxTotal), ("insurance", breakdown.insurance),
                    ("shipping_discount", breakdown.shippingDiscount), ("discount", breakdown.discount),
                ]
                for (name, money) in named {
                    if let money { parts[name] = ["currency_code": money.currencyCode, "value": money.value.description] }
                }
                amount["breakdown"] = parts
            }
            var out: [String: Any] = ["amount": amount]
            if let value = unit.referenceId { out["reference_id"] = value }
            if let value = unit.description { out["description"] = value }
            if let value = unit.customId { out["custom_id"] = value }
            if let value = unit.invoiceId { out["invoice_id"] = value }
            return out
        }
    }

    /// `payment_source` for a card (the card's secrets go to the API and nowhere else).
    static func paymentSource(_ card: Card) -> [String: Any] {
        var out: [String: Any] = ["number": card.number, "expiry": card.expiry]
        if let code = card.securityCode { out["security_code"] = code }
        if let name = card.cardholderName { out["name"] = name }
        if let address = card.billingAddress {
            var fields: [String: Any] = ["country_code": address.countryCode]
            if let value = address.addressLine1 { fields["address_line_1"] = value }
            if let value = address.addressLine2 { fields["address_line_2"] = value }
            if let value = address.adminArea1 { fields["admin_area_1"] = value }
            if let value = address.adminArea2 { fields["admin_area_2"] = value }
            if let value = address.postalCode { fields["postal_code"] = value }
            out["billing_address"] = fields
        }
        return ["card": out]
    }

    /// An Orders v2 order as the SDK's `OrderResponse`; nil when it is not one.
    static func order(_ body: [String: Any]) -> OrderResponse? {
        guard let id = body["id"] as? String, let intentText = body["intent"] as? String,
              let intent = OrderIntent(rawValue: intentText), let statusText = body["status"] as? String,
              let status = OrderStatus(rawValue: statusText) else { return nil }
        let units = (body["purchase_units"] as? [[String: Any]] ?? []).compactMap(purchaseUnit)
        var transaction: OrderTransaction?
        for unit in body["purchase_units"] as? [[String: Any]] ?? [] {
            let payments = unit["payments"] as? [String: Any] ?? [:]
            for (key, kind) in [("captures", OrderIntent.capture), ("authorizations", OrderIntent.authorize)] {
                if let first = (payments[key] as? [[String: Any]])?.first, let paymentId = first["id"] as? String,
                   let amount = money(first["amount"]) {
                    transaction = OrderTransaction(id: paymentId, kind: kind, status: first["status"] as? String ?? "",
                                                   amount: amount)
                }
            }
        }
        var card: CardSummary?
        if let source = (body["payment_source"] as? [String: Any])?["card"] as? [String: Any],
           let last = source["last_digits"] as? String, let brand = CardBrand(rawValue: source["brand"] as? String ?? "") {
            card = CardSummary(lastDigits: last, brand: brand, expiry: source["expiry"] as? String ?? "")
        }
        let links = (body["links"] as? [[String: Any]] ?? []).compactMap { link -> LinkDescription? in
            guard let href = link["href"] as? String, let rel = link["rel"] as? String else { return nil }
            return LinkDescription(href: href, rel: rel, method: link["method"] as? String ?? "GET")
        }
        let created = date(body["create_time"]) ?? Date()
        return OrderResponse(orderID: id, intent: intent, status: status, purchaseUnits: units, card: card,
                             transaction: transaction, links: links, createTime: created,
                             updateTime: date(body["update_time"]) ?? created,
                             expiresAt: date(body["expiration_time"]) ?? created.addingTimeInterval(10_800))
    }

    static func purchaseUnit(_ body: [String: Any]) -> PurchaseUnit? {
        guard let amount = body["amount"] as? [String: Any], let code = amount["currency_code"] as? String,
              let value = (amount["value"] as? String).flatMap(Amount.init) else { return nil }
        return PurchaseUnit(referenceId: body["reference_id"] as? String,
                            amount: AmountWithBreakdown(currencyCode: code, value: value, breakdown: nil),
                            description: body["description"] as? String, customId: body["custom_id"] as? String,
                            invoiceId: body["invoice_id"] as? String)
    }

    static func money(_ any: Any?) -> OrderMoney? {
        guard let body = any as? [String: Any], let code = body["currency_code"] as? String,
              let value = (body["value"] as? String).flatMap(Amount.init) else { return nil }
        return OrderMoney(currencyCode: code, value: value)
    }

    static func date(_ any: Any?) -> Date? { (any as? String).flatMap(RFC3339.parse) }

    /// An Orders v2 error answer as a northstar error: the kind its first issue (or status) names,
    /// with the API's own name, message, debug id, details and links.
    static func error(status: Int, body: [String: Any]) -> NorthstarError {
        let details = (body["details"] as? [[String: Any]] ?? []).map { detail in
            ErrorDetail(field: detail["field"] as? String, value: detail["value"] as? String,
                        issue: detail["issue"] as? String ?? "UNKNOWN", description: detail["description"] as? String ?? "")
        }
        let issue = details.first?.issue ?? ""
        let kind: NorthstarErrorKind
        switch (status, issue) {
        case (_, "INSTRUMENT_DECLINED"): kind = .instrumentDeclined
        case (_, "CARD_EXPIRED"): kind = .cardExpired
        case (_, "PAYER_ACTION_REQUIRED"): kind = .payerActionRequired
        case (_, "TRANSACTION_REFUSED"): kind = .transactionRefused
        case (_, "ORDER_ALREADY_CAPTURED"), (_, "ORDER_ALREADY_AUTHORIZED"): kind = .orderAlreadyCaptured
        case (_, "ORDER_EXPIRED"): kind = .orderExpired
        case (404, _): kind = .orderNotFound
        case (401, _), (403, _): kind = .notConfigured
        case (500..., _): kind = .processorError
        default: kind = .unprocessable
        }
        let links = (body["links"] as? [[String: Any]] ?? []).compactMap { link -> LinkDescription? in
            guard let href = link["href"] as? String, let rel = link["rel"] as? String else { return nil }
            return LinkDescription(href: href, rel: rel, method: link["method"] as? String ?? "GET")
        }
        let shown = details.isEmpty
            ? [ErrorDetail(issue: body["name"] as? String ?? kind.rawValue, description: body["message"] as? String ?? kind.message)]
            : details
        return NorthstarError(kind, data: NorthstarErrorData(
            type: kind.rawValue, name: body["name"] as? String ?? kind.name, httpStatus: status,
            message: body["message"] as? String ?? kind.message, debugId: body["debug_id"] as? String ?? "",
            details: shown, links: links.isEmpty ? nil : links))
    }
}
