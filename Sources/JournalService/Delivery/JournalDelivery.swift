import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCStore
import PayRPCSync

/// Sends journal entries to the Web API, as the document says: `POST /payments/` with the
/// callback's parameters, then (card and account) `POST /journals/` with the payment id the first
/// answer carried. A network failure is retried three times with backoff, then the entry waits
/// for the next start or `journal.sync`; a server error is reported (`journal.syncFailed`) and
/// waits likewise.
///
/// Every POST carries the `Idempotency-Key` stored in the entry's outbox, the same on every retry
/// and after any restart, so the backend never sees a payment twice; each step is recorded in the
/// entry's document before the next starts. One delivery per entry runs at a time; all run as
/// tasks, never on the event loop.
final class JournalDelivery: Sendable {
    let journal: JournalBook
    let poster: HTTPPoster
    /// The server's backend (`serve --journal-backend`), used when the profile set none.
    let serverBackend: String?
    /// The waits between the retries of a network failure.
    let backoff: [Duration]
    let connections: ProfileConnections
    let sandbox: SandboxControls
    private let inFlight = Lock<[String: Task<Void, Never>]>([:])

    init(journal: JournalBook, poster: HTTPPoster, serverBackend: String?, backoff: [Duration],
         connections: ProfileConnections, sandbox: SandboxControls) {
        self.sandbox = sandbox
        self.journal = journal
        self.poster = poster
        self.serverBackend = serverBackend
        self.backoff = backoff
        self.connections = connections
    }

    /// Starts delivering the entry (or joins the delivery already running) and returns its task.
    @discardableResult
    func deliver(_ entryId: String, profile: String) -> Task<Void, Never> {
        let key = profile + "\u{0}" + entryId
        return inFlight.withLock { running in
            if let task = running[key] { return task }
            let task = Task { [self] in
                await self.run(entryId, profile: profile)
                _ = self.inFlight.withLock { $0.removeValue(forKey: key) }
            }
            running[key] = task
            return task
        }
    }

    /// Delivers every entry of the profile that is not delivered yet, and waits for them.
    func deliverWaiting(profile: String) async throws -> [JournalEntry] {
        let waiting = try await journal.all(profile: profile).filter { $0.delivery.status != .delivered }
        for entry in waiting.reversed() { await deliver(entry.entryId, profile: profile).value }
        return waiting
    }

    /// At start-up: every profile's waiting entries.
    func resendAll() async {
        guard let profiles = try? await journal.profilesWithEntries() else { return }
        for profile in profiles { _ = try? await deliverWaiting(profile: profile) }
    }

    private func run(_ entryId: String, profile: String) async {
        guard let entry = try? await journal.entry(entryId, profile: profile), entry.delivery.status != .delivered else { return }
        guard let base = (try? await journal.backend(profile: profile)) ?? serverBackend, let baseURL = URL(string: base) else {
            _ = try? await journal.updateDelivery(entryId, profile: profile) { $0.status = .noBackend }
            return
        }
        var current = entry
        if !current.delivery.paymentPosted {
            guard let body = try? JSONSerialization.data(withJSONObject: Self.paymentBody(current), options: [.sortedKeys]),
                  case .accepted(let answer)? = await post(current, endpoint: "/payments/", baseURL: baseURL, body: body,
                                                           key: current.delivery.paymentKey, profile: profile) else { return }
            guard let paymentId = Self.paymentId(in: answer) else {
                await fail(current, endpoint: "/payments/", status: 200, message: "the /payments/ answer carried no payment id",
                           profile: profile)
                return
            }
            let posted = try? await journal.updateDelivery(entryId, profile: profile) { delivery in
                delivery.paymentPosted = true
                delivery.paymentId = paymentId
            }
            guard let posted else { return }
            current = posted
        }
        if current.type != .cash && !current.delivery.journalPosted {
            let journalBody: [String: String] = ["payment_id": current.delivery.paymentId ?? "", "entry_id": current.entryId]
            guard let body = try? JSONSerialization.data(withJSONObject: journalBody, options: [.sortedKeys]),
                  case .accepted? = await post(current, endpoint: "/journals/", baseURL: baseURL, body: body,
                                               key: current.delivery.journalKey, profile: profile) else { return }
            _ = try? await journal.updateDelivery(entryId, profile: profile) { $0.journalPosted = true }
        }
        let now = sandbox.now(profile: profile)
        _ = try? await journal.updateDelivery(entryId, profile: profile) { delivery in
            delivery.status = .delivered
            delivery.lastError = nil
            delivery.deliveredAt = now
        }
    }

    /// One POST with its retries; nil when it did not get through (the entry's state says why).
    private func post(_ entry: JournalEntry, endpoint: String, baseURL: URL, body: Data, key: String,
                      profile: String) async -> PostOutcome? {
        let url = baseURL.appendingPathComponent(String(endpoint.dropFirst()))
            .appendingPathComponent("")
        for attempt in 0...backoff.count {
            if attempt > 0 { try? await Task.sleep(for: backoff[attempt - 1]) }
            let outcome = await poster.post(url, body: body, idempotencyKey: key)
            _ = try? await journal.updateDelivery(entry.entryId, profile: profile) { $0.attempts += 1 }
            switch outcome {
            case .accepted:
                return outcome
            case .serverError(let status, let message):
                await fail(entry, endpoint: endpoint, status: status, message: message, profile: profile)
                return nil
            case .networkError(let message):
                _ = try? await journal.updateDelivery(entry.entryId, profile: profile) { delivery in
                    delivery.status = .waiting
                    delivery.lastError = "\(endpoint): network error: \(message)"
                }
            }
        }
        return nil
    }

    /// Records a server error and tells the profile's connections.
    private func fail(_ entry: JournalEntry, endpoint: String, status: Int, message: String, profile: String) async {
        _ = try? await journal.updateDelivery(entry.entryId, profile: profile) { delivery in
            delivery.status = .serverError
            delivery.lastError = "\(endpoint): HTTP \(status): \(message)"
        }
        connections.broadcast(SyncFailed.self, .init(entryId: entry.entryId, endpoint: endpoint, httpStatus: status,
                                                     message: message), profile: profile)
    }

    /// The `/payments/` body: the callback's parameters, the entry's id, and for cash its type and amount.
    static func paymentBody(_ entry: JournalEntry) -> [String: String] {
        var body = entry.parameters
        body["entry_id"] = entry.entryId
        body["payment_type"] = entry.type.rawValue
        if let amount = entry.amount { body["Amount"] = amount.description }
        return body
    }

    /// The payment id of a `/payments/` answer: its `id`, `payment_id` or `paymentId`.
    static func paymentId(in body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        for key in ["id", "payment_id", "paymentId"] {
            if let text = object[key] as? String, !text.isEmpty { return text }
            if let number = object[key] as? NSNumber { return number.stringValue }
        }
        return nil
    }
}
