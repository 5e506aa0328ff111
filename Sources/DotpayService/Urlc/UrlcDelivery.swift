import Foundation
import Logging
import PayRPCCore
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCStore
import PayRPCSecrets

/// Posts URLC notifications to the shop, as Dotpay does: the parameters as a form with their
/// `signature` (``UrlcMessage``), accepted when the shop answers HTTP 200 with `OK`.
///
/// The journal's rules: each notification is written to the outbox in the transaction of the
/// status it reports; every try carries the notification's id as `Idempotency-Key` (the same on
/// every retry and after a restart) and is recorded; a network failure is tried again after each
/// wait of the backoff, then the notification waits for the next start or
/// `sandbox.dotpay.deliverUrlc`; any other answer is recorded as `shopError` and waits likewise.
/// Every failure is also pushed to the profile's connections on every gateway of the store
/// (`dotpay.urlcDeliveryFailed`): none is silent. When and how often a notification is sent is
/// the kit's ``OutboxDelivery``, as for every outbox; on a store that several gateways share,
/// each try (the first, armed in the transaction that writes the notification, and each retry)
/// is made by one live gateway, and by another when that one dies (``SharedDeliveries``).
final class UrlcDelivery: OutboxDelivery {
    let book: DotpayBook
    let retry: DeliveryRetry
    let runner = DeliveryRunner()
    let secrets: SecretHasher
    /// Every connection of each profile, on every gateway: the failures go to all of them.
    let audience: ProfileAudience
    let clock: SandboxControls
    let logger: Logger

    /// What the shop's PIN is sealed for (the associated data of its seal).
    static let pinContext = "dotpay.shopPin"

    init(
        book: DotpayBook, retry: DeliveryRetry, secrets: SecretHasher, audience: ProfileAudience, clock: SandboxControls,
        logger: Logger
    ) {
        self.book = book
        self.retry = retry
        self.secrets = secrets
        self.audience = audience
        self.clock = clock
        self.logger = logger
    }

    /// The notifications.
    var outbox: Outbox<UrlcNotification> { book.notifications }

    /// The tries across gateways (shared store; nil: this gateway alone).
    var shared: SharedDeliveries? { book.deliveries }

    /// Whether a try's outcome is the shop's acceptance: HTTP 200 with `OK`.
    static func isOK(_ outcome: Result<HTTPResponse, HTTPClientError>) -> Bool {
        guard case .success(let answer) = outcome else { return false }
        return answer.status == 200 && answer.text.trimmingCharacters(in: .whitespacesAndNewlines) == "OK"
    }

    /// Starts delivering the notifications (or joins their deliveries); `written`: the book has
    /// just written them (their first tries armed with them, on a shared store).
    func deliver(_ notifications: [UrlcNotification], profile: String, written: Bool = true) {
        for notification in notifications {
            let first = written ? shared?.firstTry(item: notification.notificationId, profile: profile) : nil
            deliver(notification.notificationId, profile: profile, armed: first)
        }
    }

    /// One delivery: sign, post with retries from the try `first`, each recorded (and, on a
    /// shared store, claimed through `claims`).
    /// - Throws: the store's error when a step cannot be recorded.
    func send(_ id: String, profile: String, from first: Int, claims: DeliveryClaims?) async throws {
        guard let notification = try await outbox.item(id, profile: profile), !notification.isDelivered else {
            return
        }
        guard let url = URL(string: notification.url) else {
            return try await fail(
                notification, .shopError, httpStatus: nil, "the urlc \(notification.url) is not a URL", profile: profile)
        }
        let sealed = try await book.settings(profile).sealedShopPin
        guard let pin = sealed.flatMap({ secrets.unseal($0, context: Self.pinContext) }) else {
            return try await fail(
                notification, .noPin, httpStatus: nil,
                "no shop PIN to sign it with: set one with sandbox.dotpay.setShopPin", profile: profile)
        }
        let request = HTTPRequest(
            "POST", url, formFields: try UrlcMessage.form(notification.fields, pin: pin),
            headers: [("Idempotency-Key", id)])
        // The shop's OK is recorded in the transaction that records its try (and announces it
        // made): no gateway dies between a made try and the notification delivered.
        let outcome = try await retry.send(request, from: first, claims: claims) { outcome, recording in
            let deliveredAt = Self.isOK(outcome) ? clock.now(profile: profile) : nil
            try await outbox.change(id, profile: profile, publishing: recording?.publishing()) { stored in
                stored.attempts += 1
                if case .failure(let error) = outcome {
                    stored.status = .waiting
                    stored.lastError = "network error: \(error)"
                }
                if let deliveredAt {
                    stored.status = .delivered
                    stored.httpStatus = 200
                    stored.lastError = nil
                    stored.deliveredAt = deliveredAt
                }
            }
        }
        switch outcome {
        case .success where Self.isOK(outcome):
            break
        case .success(let answer):
            try await fail(
                notification, .shopError, httpStatus: answer.status,
                "the shop answered HTTP \(answer.status) \"\(answer.text.prefix(200))\" instead of 200 OK", profile: profile)
        case .failure(let error):
            try await fail(
                notification, .waiting, httpStatus: nil,
                "no answer after \(retry.backoff.count + 1) tries: \(error)", profile: profile)
        }
    }

    /// Records why a notification did not get through and tells the profile's connections, on
    /// every gateway of the store (published in the transaction that records it).
    private func fail(
        _ notification: UrlcNotification, _ status: UrlcDeliveryStatus, httpStatus: Int?, _ message: String,
        profile: String
    ) async throws {
        let push = audience.push(
            UrlcDeliveryFailed.self,
            .init(
                notificationId: notification.notificationId, paymentId: notification.paymentId,
                operationType: notification.operationType,
                url: notification.url, status: status, httpStatus: httpStatus, message: message), profile: profile)
        try await outbox.change(notification.notificationId, profile: profile, announcing: push) { stored in
            stored.status = status
            stored.httpStatus = httpStatus
            stored.lastError = message
        }
        audience.deliver(push)
    }
}
