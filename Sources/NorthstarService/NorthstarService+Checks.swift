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
    /// Orders v2's checks of purchase units: known currency, its number of decimals, a positive
    /// value, an amount equal to its breakdown, one currency per unit, reference ids when there
    /// are several units. Every problem becomes one detail.
    func problems(in units: [PurchaseUnit], at pointer: String) -> [ErrorDetail] {
        var details: [ErrorDetail] = []
        var references = Set<String>()
        for (index, unit) in units.enumerated() {
            let base = "\(pointer)/\(index)"
            let amount = unit.amount
            if units.count > 1 {
                if let reference = unit.referenceId {
                    if !references.insert(reference).inserted {
                        details.append(
                            ErrorDetail(
                                field: "\(base)/referenceId", value: reference, issue: "DUPLICATE_REFERENCE_ID",
                                description: "every purchase unit needs its own referenceId"))
                    }
                } else {
                    details.append(
                        ErrorDetail(
                            field: "\(base)/referenceId", issue: "REFERENCE_ID_REQUIRED",
                            description: "an order with several purchase units needs a referenceId on each"))
                }
            }
            if let first = units.first?.amount.currencyCode, amount.currencyCode != first {
                details.append(
                    ErrorDetail(
                        field: "\(base)/amount/currencyCode", value: amount.currencyCode, issue: "MULTI_CURRENCY_ORDER",
                        description: "every purchase unit of an order must be in one currency (\(first))"))
            }
            details += problems(inMoney: amount, at: "\(base)/amount")
            guard let breakdown = amount.breakdown else { continue }
            let parts: [(String, OrderMoney?, Bool)] = [
                ("itemTotal", breakdown.itemTotal, false), ("shipping", breakdown.shipping, false),
                ("handling", breakdown.handling, false), ("taxTotal", breakdown.taxTotal, false),
                ("insurance", breakdown.insurance, false), ("shippingDiscount", breakdown.shippingDiscount, true),
                ("discount", breakdown.discount, true),
            ]
            var sum: Amount? = .zero
            for (name, part, subtracted) in parts {
                guard let part else { continue }
                let field = "\(base)/amount/breakdown/\(name)"
                if part.currencyCode != amount.currencyCode {
                    details.append(
                        ErrorDetail(
                            field: "\(field)/currencyCode", value: part.currencyCode, issue: "CURRENCY_MISMATCH",
                            description: "every part of the amount must be in \(amount.currencyCode)"))
                }
                details += problems(inMoney: part, at: field, allowZero: true)
                sum = subtracted ? sum?.subtracting(part.value) : sum?.adding(part.value)
            }
            if let sum, sum != amount.value {
                details.append(
                    ErrorDetail(
                        field: "\(base)/amount/value", value: amount.value.description, issue: "AMOUNT_MISMATCH",
                        description:
                            "the amount must equal item total + tax + shipping + handling + insurance - shipping discount - discount (\(sum))"
                    ))
            }
        }
        return details
    }

    /// A money value's problems: unknown currency, too many decimals (the kit's check, decimals as
    /// written), not positive.
    func problems(inMoney money: some CarriesMoney, at field: String, allowZero: Bool = false) -> [ErrorDetail] {
        var details: [ErrorDetail] = []
        let value = money.moneyAmount
        do {
            _ = try money.money(rule: .asWritten)
        } catch .unknownCurrency(let code) {
            return [
                ErrorDetail(
                    field: "\(field)/currencyCode", value: code, issue: "CURRENCY_NOT_SUPPORTED",
                    description: "\(code) is not an ISO 4217 currency")
            ]
        } catch {
            details.append(
                ErrorDetail(
                    field: "\(field)/value", value: value.description, issue: "DECIMAL_PRECISION",
                    description: error.description))
        }
        if value.isNegative || (!allowZero && value.isZero) {
            details.append(
                ErrorDetail(
                    field: "\(field)/value", value: value.description,
                    issue: "CANNOT_BE_ZERO_OR_NEGATIVE", description: "the value must be more than zero"))
        }
        return details
    }

    /// Checks a card as Orders v2 does before the issuer sees it; throws `UNPROCESSABLE_ENTITY`
    /// or `CARD_EXPIRED` naming the field. Never puts the number or the code in an error.
    func check(_ card: Card, at pointer: String, _ context: RequestContext) throws -> CheckedCard {
        guard let scheme = CardRules.brand(of: card.number), let brand = CardBrand(scheme) else {
            throw error(
                .unprocessable, context, field: "\(pointer)/number", issue: "CARD_TYPE_NOT_SUPPORTED",
                "the card number's prefix is not one of a supported brand (Visa, Mastercard, American Express, Discover, JCB, Diners Club)"
            )
        }
        guard CardRules.isValid(card.number, brand: scheme) else {
            throw error(
                .unprocessable, context, field: "\(pointer)/number", issue: "INVALID_CARD_NUMBER",
                "the card number is not a valid \(brand.rawValue) number (length or check digit)")
        }
        if let code = card.securityCode, code.utf8.count != scheme.securityCodeLength {
            throw error(
                .unprocessable, context, field: "\(pointer)/securityCode", issue: "INVALID_SECURITY_CODE_LENGTH",
                "a \(brand.rawValue) security code has \(scheme.securityCodeLength) digits")
        }
        let outcome = testCards[card.number]?.outcome ?? .approve
        guard let expiry = CardRules.expiryMonth(card.expiry), !expiry.isExpired(at: context.now), outcome != .expired else {
            throw error(
                .cardExpired, context, field: "\(pointer)/expiry", issue: "CARD_EXPIRED",
                "the card expired (\(card.expiry)) before \(RFC3339.format(context.now))")
        }
        let summary = CardSummary(lastDigits: String(card.number.suffix(4)), brand: brand, expiry: card.expiry)
        return CheckedCard(
            summary: summary, hash: try secrets.keyedHash(card.number, context: "northstar.card"), outcome: outcome)
    }

    /// The payment source of a call: the card checked, or the nonce used up (once). Nil when
    /// neither is given.
    func paymentSource(
        card: Card?, nonce: String?, at pointer: String,
        _ context: RequestContext
    ) async throws -> CheckedCard? {
        if card != nil && nonce != nil {
            throw error(
                .unprocessable, context, field: "\(pointer)/nonce", issue: "MULTIPLE_PAYMENT_SOURCES",
                "give a card or a nonce, not both")
        }
        if let card { return try check(card, at: "\(pointer)/card", context) }
        guard let nonce else { return nil }
        let key = try secrets.keyedHash(nonce, context: "northstar.nonce")
        let now = context.now
        let found = try await book.useNonce(key: key, profile: context.profile, now: now)
        guard let found else {
            throw error(
                .nonceInvalid, context, field: "\(pointer)/nonce", issue: "NONCE_INVALID",
                "the nonce is unknown, expired, or was used already")
        }
        return CheckedCard(summary: found.card, hash: found.cardHash, outcome: found.outcome)
    }
}
