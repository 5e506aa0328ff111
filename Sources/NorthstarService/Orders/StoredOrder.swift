import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// An order as the sandbox keeps it (namespace `northstar.orders`, key the order id): what the
/// answer shows, plus the keyed hash of the card that approved it and that card's outcome.
struct StoredOrder: JSONModel, KeyedDocument, Equatable {
    static let namespace = "northstar.orders"

    var orderID: String
    var intent: OrderIntent
    var status: OrderStatus
    var purchaseUnits: [PurchaseUnit]
    var card: CardSummary?
    /// The keyed hash of the approving card's number (never the number).
    var cardHash: String?
    /// What the sandbox's issuer does with the approving card.
    var cardOutcome: CardOutcome?
    var transaction: OrderTransaction?
    var createTime: Date
    var updateTime: Date
    var expiresAt: Date

    /// Records the card that pays or approves the order, at `now`.
    mutating func take(_ source: CheckedCard, at now: Date) {
        card = source.summary
        cardHash = source.hash
        cardOutcome = source.outcome
        updateTime = now
    }

    /// The order as answers show it, with the links its status calls for.
    var response: OrderResponse {
        var links = [
            LinkDescription(
                href: "https://api-m.sandbox.payrpc.invalid/v2/checkout/orders/\(orderID)",
                rel: "self", method: "GET")
        ]
        if status == .payerActionRequired {
            links.append(
                LinkDescription(
                    href: "https://sandbox.payrpc.invalid/checkoutnow?token=\(orderID)",
                    rel: "payer-action", method: "GET"))
        }
        return OrderResponse(
            orderID: orderID, intent: intent, status: status, purchaseUnits: purchaseUnits, card: card,
            transaction: transaction, links: links, createTime: createTime, updateTime: updateTime,
            expiresAt: expiresAt)
    }

    /// The order's total (the first unit's currency; every unit's amount added).
    var total: OrderMoney {
        let currency = purchaseUnits.first?.amount.currencyCode ?? "USD"
        var sum = Amount.zero
        for unit in purchaseUnits { sum = sum.adding(unit.amount.value) ?? sum }
        return OrderMoney(currencyCode: currency, value: sum)
    }
}
