import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCStore
import PayRPCServiceKit

extension DotpayService {
    /// `dotpay.paymentHistory`: newest first.
    public func paymentHistory(_ params: NoParams, _ context: RequestContext) async throws -> [PaymentSummary] {
        return try await book.payments(context.profile).map(\.summary)
            .sorted { ($0.createdAt, $0.paymentId) > ($1.createdAt, $1.paymentId) }
    }

    /// `dotpay.removePaymentSummary`.
    public func removePaymentSummary(_ params: RemovePaymentSummary.Params, _ context: RequestContext) async throws -> NoResult {
        guard try await book.removePayment(params.paymentId, profile: context.profile) else {
            throw DotpayError(.paymentNotFound, "no payment \(params.paymentId) in the history", paymentId: params.paymentId)
        }
        return NoResult()
    }

    /// `dotpay.updatePaymentSummary`: re-reads the status on the profile's sandbox clock and tells
    /// the observers (on every gateway: published in the read's transaction); a payment that
    /// completes now posts its URLC notification.
    public func updatePaymentSummary(_ params: UpdatePaymentSummary.Params, _ context: RequestContext) async throws
        -> PaymentSummary
    {
        let (observers, profile) = (self.observers, context.profile)
        guard
            let (updated, notification) = try await book.refreshPayment(
                params.paymentId, profile: profile, now: context.now,
                announcing: { payment, documents in try Self.summaryPush(payment, observers, profile).publish(in: documents) })
        else {
            throw DotpayError(.paymentNotFound, "no payment \(params.paymentId) in the history", paymentId: params.paymentId)
        }
        urlc.deliver(notification.map { [$0] } ?? [], profile: profile)
        observers.deliver(Self.summaryPush(updated, observers, profile))
        if updated.updateFails { throw Self.updateFailure(updated) }
        return updated.summary
    }

    /// What the observers of `profile` are told of a payment read again: its summary, or that
    /// its status could not be read.
    static func summaryPush(_ payment: StoredPayment, _ observers: HistoryObservers, _ profile: String) -> ProfilePush {
        guard payment.updateFails else {
            return observers.push(DidUpdatePaymentSummary.self, .init(paymentSummary: payment.summary), profile: profile)
        }
        return observers.push(
            DidFailedToUpdatePaymentSummary.self, .init(paymentSummary: payment.summary, error: updateFailure(payment).data),
            profile: profile)
    }

    /// The error of a payment whose status cannot be read (a sandbox amount).
    static func updateFailure(_ payment: StoredPayment) -> DotpayError {
        let id = payment.summary.paymentId
        return DotpayError(
            .updateFailed, "the status of \(id) could not be read (sandbox amount \(payment.summary.amount))", paymentId: id)
    }

    /// `dotpay.paymentHistory.registerObserver`.
    public func registerObserver(_ params: NoParams, _ context: RequestContext) async throws -> NoResult {
        observers.register(context.connection)
        return NoResult()
    }

    /// `dotpay.paymentHistory.unregisterObserver`.
    public func unregisterObserver(_ params: NoParams, _ context: RequestContext) async throws -> NoResult {
        observers.unregister(context.connection)
        return NoResult()
    }
}
