import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// A payment of the history (namespace `dotpay.history`, key its id), with what the sandbox
/// will answer when its status is read again, and what its URLC notifications need.
struct StoredPayment: JSONModel, KeyedDocument, Equatable {
    static let namespace = "dotpay.history"

    var summary: PaymentSummary
    /// When a `completesLater` payment completes.
    var completesAt: Date?
    /// Whether re-reading its status fails.
    var updateFails: Bool
    /// The shop's URL for URLC notifications (`PaymentInfo.urlc`), if any.
    var urlc: String? = nil
    /// The buyer's email (`senderInformation.email`), sent in URLC notifications.
    var email: String? = nil
    /// The card that paid, when one did (a 1Click card, or the card typed in the form).
    var card: PaidCard? = nil

    /// Completes a `completesLater` payment once its time has come; returns whether it did.
    mutating func completeIfDue(at now: Date) -> Bool {
        guard !updateFails, let completesAt, now >= completesAt, summary.status == .processing else { return false }
        summary.status = .completed
        summary.updatedAt = now
        summary.relatedOperations[0].status = .completed
        self.completesAt = nil
        return true
    }

    /// Refunds `amount` (all that is left when nil) as the operation `number`, and returns it.
    /// - Throws: ``DotpayError`` `refundRefused` unless the payment is completed and `amount` is
    ///   no more than what is left.
    mutating func refund(_ amount: Amount?, number: String, at now: Date) throws(DotpayError) -> RelatedOperation {
        let id = summary.paymentId
        guard summary.status == .completed else {
            throw DotpayError(
                .refundRefused, "payment \(id) is \(summary.status.rawValue): only a completed payment is refunded",
                paymentId: id)
        }
        guard let left = refundable, !left.isZero && !left.isNegative else {
            throw DotpayError(.refundRefused, "payment \(id) is refunded in full already", paymentId: id)
        }
        let refunded = amount ?? left
        guard refunded <= left else {
            throw DotpayError(
                .refundRefused, "\(refunded) \(summary.currency) is more than the \(left) left to refund of \(id)",
                paymentId: id)
        }
        let operation = RelatedOperation(number: number, type: "refund", status: .completed, amount: refunded, date: now)
        summary.relatedOperations.append(operation)
        summary.updatedAt = now
        return operation
    }

    /// What is left to refund: the amount less the refunds so far.
    var refundable: Amount? {
        summary.relatedOperations.filter { $0.type == "refund" }
            .reduce(Optional(summary.amount)) { left, refund in left?.subtracting(refund.amount) }
    }

    /// The URLC notification of `operation` (a status the shop is told of), when the payment has a
    /// `urlc`: its id is the operation's number and status, so it is written once whoever writes it.
    func notification(of operation: RelatedOperation, at now: Date) -> UrlcNotification? {
        guard let urlc, operation.status.isFinal else { return nil }
        return UrlcNotification(
            notificationId: "urlc-\(operation.number)-\(operation.status.rawValue)", paymentId: summary.paymentId,
            operationNumber: operation.number, operationType: operation.type, operationStatus: operation.status, url: urlc,
            fields: UrlcMessage.fields(of: self, operation: operation), status: .waiting, attempts: 0, httpStatus: nil,
            lastError: nil, createdAt: now, deliveredAt: nil)
    }
}

/// The card a payment was made with, as URLC notifications name it.
struct PaidCard: JSONModel, Equatable {
    /// The masked number.
    var maskedNumber: String
    /// The brand's codename (`visa`).
    var brandCodename: String
    /// The remembered card's id, when it is one.
    var creditCardId: String?
}
