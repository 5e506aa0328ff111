#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCServiceKit
import PayRPCStore
import PayRPCSecrets

/// What a URLC notification says, and how it is signed: Dotpay's *Receiving payment confirmation
/// (URLC confirmation)* (chapter 3 of its *Technical manual for payments implementation*, Table 3
/// and 3.2, *An example of calculating the signature parameter*).
///
/// Dotpay posts the parameters as a form; `signature` is the lower-case hex SHA-256 of the shop's
/// PIN followed by the values of the other parameters in the documented order, a parameter that
/// is not sent adding nothing. ``fields(of:operation:)`` writes that order once; the sandbox sends
/// the parameters it has a value for (no commission, withdrawal, payer's bank or BLIK voucher
/// fields).
enum UrlcMessage {
    /// The parameters of the notification of `operation` (the payment itself, or one of its
    /// refunds), in the documented order, absent ones left out.
    static func fields(of payment: StoredPayment, operation: RelatedOperation) -> [UrlcField] {
        let summary = payment.summary
        let amount = formatted(operation.amount, currency: summary.currency)
        let ordered: [(String, String?)] = [
            ("id", summary.merchantID),
            ("operation_number", operation.number),
            ("operation_type", operation.type),
            ("operation_status", operation.status.rawValue),
            ("operation_amount", amount),
            ("operation_currency", summary.currency),
            ("operation_original_amount", amount),
            ("operation_original_currency", summary.currency),
            ("operation_datetime", datetime(operation.date)),
            ("operation_related_number", operation.number == summary.paymentId ? nil : summary.paymentId),
            ("control", summary.control),
            ("description", summary.description),
            ("email", payment.email),
            ("credit_card_masked_number", payment.card?.maskedNumber),
            ("credit_card_brand_codename", payment.card?.brandCodename),
            ("credit_card_id", payment.card?.creditCardId),
            ("channel", String(summary.channelId)),
        ]
        return ordered.compactMap { name, value in value.map { UrlcField(name: name, value: $0) } }
    }

    /// `signature`: SHA-256 (OpenSSL's) of `pin` and the values of `fields` in their order, as
    /// lower-case hex.
    /// - Throws: ``StoreError`` (`cryptography`) when OpenSSL fails.
    static func signature(of fields: [UrlcField], pin: String) throws -> String {
        Hex.encode(try SHA256.hash(pin + fields.map(\.value).joined()))
    }

    /// The form posted to the shop: the parameters, then `signature`.
    /// - Throws: ``StoreError`` (`cryptography`) when OpenSSL fails.
    static func form(_ fields: [UrlcField], pin: String) throws -> [(name: String, value: String)] {
        fields.map { ($0.name, $0.value) } + [("signature", try signature(of: fields, pin: pin))]
    }

    /// An amount with its currency's decimals (`40` PLN is posted as `40.00`, as Dotpay does).
    static func formatted(_ amount: Amount, currency code: String) -> String {
        (try? Money.checked(amount: amount, currencyCode: code))?.text ?? amount.description
    }

    /// `operation_datetime`: `YYYY-MM-DD hh:mm:ss`, in UTC on the profile's sandbox clock.
    static func datetime(_ date: Date) -> String {
        let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        return String(RFC3339.format(whole).prefix(19).map { $0 == "T" ? " " : $0 })
    }
}
