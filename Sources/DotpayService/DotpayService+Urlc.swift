import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import PayRPCStore
import PayRPCSecrets

extension DotpayService {
    /// `sandbox.dotpay.setShopPin`: sealed, then the notifications that waited for it are sent.
    public func setShopPin(_ params: SetShopPin.Params, _ context: RequestContext) async throws -> NoResult {
        let sealed = try secrets.seal(params.pin, context: UrlcDelivery.pinContext)
        try await updateSettings(context) { $0.sealedShopPin = sealed }
        let waiting = try await book.notifications.items(profile: context.profile).filter { $0.status == .noPin }
        urlc.deliver(waiting, profile: context.profile, written: false)
        return NoResult()
    }

    /// `sandbox.dotpay.urlcNotifications`.
    public func urlcNotifications(_ params: UrlcNotifications.Params, _ context: RequestContext) async throws
        -> [UrlcNotification]
    {
        return try await book.notifications.items(profile: context.profile).filter { notification in
            params.paymentId.map { $0 == notification.paymentId } ?? true
        }
    }

    /// `sandbox.dotpay.deliverUrlc`: payments due on the profile's clock complete first.
    public func deliverUrlc(_ params: NoParams, _ context: RequestContext) async throws -> DeliverUrlc.Result {
        // Their first tries were armed as they completed: held here before the resend joins them.
        urlc.deliver(try await book.completeDuePayments(profile: context.profile, now: context.now), profile: context.profile)
        let tried = try await urlc.deliverWaiting(profile: context.profile)
        let delivered = tried.filter { $0.status == .delivered }.count
        return DeliverUrlc.Result(attempted: tried.count, delivered: delivered, waiting: tried.count - delivered)
    }

    /// `sandbox.dotpay.refund`.
    public func refund(_ params: Refund.Params, _ context: RequestContext) async throws -> PaymentSummary {
        if let amount = params.amount, amount.isZero || amount.isNegative {
            throw RPCError.invalidParams([
                SchemaViolation(pointer: "/amount", keyword: "amount", message: "must be more than zero")
            ])
        }
        guard let currency = try await book.payment(params.paymentId, profile: context.profile)?.summary.currency else {
            throw DotpayError(.paymentNotFound, "no payment \(params.paymentId) in the history", paymentId: params.paymentId)
        }
        var amount: Amount?
        if let given = params.amount {
            guard let money = try? Money.checked(amount: given, currencyCode: currency) else {
                throw RPCError.invalidParams([
                    SchemaViolation(
                        pointer: "/amount", keyword: "amount",
                        message: "has more decimals than \(currency) takes")
                ])
            }
            amount = Money(minorUnits: money.minorUnits, currency: money.currency).amount
        }
        let (observers, profile) = (self.observers, context.profile)
        let (payment, notification) = try await book.refund(
            params.paymentId, amount: amount, number: newOperationNumber(context), profile: profile, now: context.now,
            announcing: { payment, documents in
                try observers.push(DidUpdatePaymentSummary.self, .init(paymentSummary: payment.summary), profile: profile)
                    .publish(in: documents)
            })
        observers.deliver(
            observers.push(DidUpdatePaymentSummary.self, .init(paymentSummary: payment.summary), profile: profile))
        urlc.deliver(notification.map { [$0] } ?? [], profile: context.profile)
        return payment.summary
    }

    /// After a move of the profile's sandbox clock: the payments whose time has come complete and
    /// their notifications are posted (the store is written only when one has come due).
    static func completeDuePayments(profile: String, now: Date, urlc: UrlcDelivery, due: DueCompletions) async {
        do {
            let mark = due.mark(profile: profile)
            if let next = try await urlc.book.nextCompletion(profile: profile), next <= now {
                urlc.deliver(try await urlc.book.completeDuePayments(profile: profile, now: now), profile: profile)
            }
            due.set(profile: profile, next: try await urlc.book.nextCompletion(profile: profile), since: mark)
        } catch {
            urlc.logger.error(
                "dotpay: the payments due on the sandbox clock could not be completed",
                metadata: ["error": .string("\(error)")])
        }
    }
}
