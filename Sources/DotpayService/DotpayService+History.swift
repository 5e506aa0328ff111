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
    /// the observers; a payment that completes now posts its URLC notification.
    public func updatePaymentSummary(_ params: UpdatePaymentSummary.Params, _ context: RequestContext) async throws
        -> PaymentSummary
    {
        guard
            let (updated, notification) = try await book.refreshPayment(
                params.paymentId, profile: context.profile, now: context.now)
        else {
            throw DotpayError(.paymentNotFound, "no payment \(params.paymentId) in the history", paymentId: params.paymentId)
        }
        urlc.deliver(notification.map { [$0] } ?? [], profile: context.profile)
        if updated.updateFails {
            let error = DotpayError(
                .updateFailed, "the status of \(params.paymentId) could not be read (sandbox amount \(updated.summary.amount))",
                paymentId: params.paymentId)
            observers.broadcast(
                DidFailedToUpdatePaymentSummary.self, .init(paymentSummary: updated.summary, error: error.data),
                profile: context.profile, in: connections)
            throw error
        }
        observers.broadcast(
            DidUpdatePaymentSummary.self, .init(paymentSummary: updated.summary), profile: context.profile,
            in: connections)
        return updated.summary
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
