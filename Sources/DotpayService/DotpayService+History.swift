import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCStore
import PayRPCServiceKit

extension DotpayService {
    /// The topic the history's observers subscribe to.
    static let historyTopic = "dotpay.paymentHistory"

    /// `dotpay.paymentHistory`: newest first.
    public func paymentHistory(_ params: NoParams, _ context: RequestContext) async throws -> [PaymentSummary] {
        connections.track(context.connection)
        return try await book.payments(context.profile).map(\.summary)
            .sorted { ($0.createdAt, $0.paymentId) > ($1.createdAt, $1.paymentId) }
    }

    /// `dotpay.removePaymentSummary`.
    public func removePaymentSummary(_ params: RemovePaymentSummary.Params, _ context: RequestContext) async throws -> NoResult {
        connections.track(context.connection)
        guard try await book.removePayment(params.paymentId, profile: context.profile) else {
            throw DotpayError(.paymentNotFound, "no payment \(params.paymentId) in the history", paymentId: params.paymentId)
        }
        return NoResult()
    }

    /// `dotpay.updatePaymentSummary`: re-reads the status on the profile's sandbox clock and tells
    /// the observers; a payment that completes now posts its URLC notification.
    public func updatePaymentSummary(_ params: UpdatePaymentSummary.Params, _ context: RequestContext) async throws -> PaymentSummary {
        connections.track(context.connection)
        guard let (updated, notification) = try await book.refreshPayment(params.paymentId, profile: context.profile, now: context.now)
        else {
            throw DotpayError(.paymentNotFound, "no payment \(params.paymentId) in the history", paymentId: params.paymentId)
        }
        urlc.deliver(notification.map { [$0] } ?? [], profile: context.profile)
        if updated.updateFails {
            let error = DotpayError(.updateFailed, "the status of \(params.paymentId) could not be read (sandbox amount \(updated.summary.amount))",
                                    paymentId: params.paymentId)
            connections.broadcast(DidFailedToUpdatePaymentSummary.self, .init(paymentSummary: updated.summary, error: error.data),
                                  profile: context.profile, topic: Self.historyTopic)
            throw error
        }
        connections.broadcast(DidUpdatePaymentSummary.self, .init(paymentSummary: updated.summary), profile: context.profile,
                              topic: Self.historyTopic)
        return updated.summary
    }

    /// `dotpay.paymentHistory.registerObserver`.
    public func registerObserver(_ params: NoParams, _ context: RequestContext) async throws -> NoResult {
        connections.setSubscribed(context.connection, to: Self.historyTopic, true)
        return NoResult()
    }

    /// `dotpay.paymentHistory.unregisterObserver`.
    public func unregisterObserver(_ params: NoParams, _ context: RequestContext) async throws -> NoResult {
        connections.setSubscribed(context.connection, to: Self.historyTopic, false)
        return NoResult()
    }
}
