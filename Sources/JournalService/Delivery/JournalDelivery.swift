import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit
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
/// tasks, never on the event loop. A step that cannot be recorded (the store failed) stops the
/// delivery and is logged: the entry waits for the next try with what was recorded.
final class JournalDelivery: Sendable {
    let journal: JournalBook
    let client: HTTPClient
    /// The server's backend (`serve --journal-backend`), used when the profile set none.
    let serverBackend: String?
    /// The waits between the retries of a network failure.
    let backoff: [Duration]
    let connections: ProfileConnections
    let sandbox: SandboxControls
    let logger: Logger
    private let inFlight = Lock<[String: Task<Void, Never>]>([:])

    init(journal: JournalBook, client: HTTPClient, serverBackend: String?, backoff: [Duration],
         connections: ProfileConnections, sandbox: SandboxControls, logger: Logger) {
        self.sandbox = sandbox
        self.journal = journal
        self.client = client
        self.serverBackend = serverBackend
        self.backoff = backoff
        self.connections = connections
        self.logger = logger
    }

    /// Starts delivering the entry (or joins the delivery already running) and returns its task.
    @discardableResult
    func deliver(_ entryId: String, profile: String) -> Task<Void, Never> {
        let key = profile + "\u{0}" + entryId
        return inFlight.withLock { running in
            if let task = running[key] { return task }
            let task = Task { [self] in
                await self.run(entryId, profile: profile)
                self.inFlight.withLock { _ = $0.removeValue(forKey: key) }
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
        do {
            for profile in try await journal.profilesWithEntries() {
                _ = try await deliverWaiting(profile: profile)
            }
        } catch {
            logger.error("journal: the entries waiting at start-up could not be read", metadata: ["error": "\(error)"])
        }
    }

    private func run(_ entryId: String, profile: String) async {
        do {
            try await deliver(entryId, of: profile)
        } catch {
            logger.error("journal: a delivery step could not be recorded; the entry waits for the next try",
                         metadata: ["journal.entryId": .string(entryId), "error": .string("\(error)")])
        }
    }

    /// Runs the entry's remaining steps, recording each.
    /// - Throws: the store's error when a step cannot be recorded.
    private func deliver(_ entryId: String, of profile: String) async throws {
        guard let entry = try await journal.entry(entryId, profile: profile), entry.delivery.status != .delivered else { return }
        guard let base = try await journal.backend(profile: profile) ?? serverBackend, let baseURL = URL(string: base) else {
            try await journal.updateDelivery(entryId, profile: profile) { $0.status = .noBackend }
            return
        }
        var current = entry
        if !current.delivery.paymentPosted {
            guard let answer = try await post(current, endpoint: "/payments/", baseURL: baseURL,
                                              request: { HTTPRequest("POST", $0, json: Self.paymentBody(current)) },
                                              key: current.delivery.paymentKey, profile: profile) else { return }
            guard let paymentId = (try? answer.decode(PaymentAnswer.self))?.anyPaymentId else {
                try await fail(current, endpoint: "/payments/", status: answer.status,
                               message: "the /payments/ answer carried no payment id", profile: profile)
                return
            }
            guard let posted = try await journal.updateDelivery(entryId, profile: profile, { delivery in
                delivery.paymentPosted = true
                delivery.paymentId = paymentId
            }) else { return }
            current = posted
        }
        if current.type != .cash && !current.delivery.journalPosted {
            let body = JournalPost(paymentId: current.delivery.paymentId ?? "", entryId: current.entryId)
            guard try await post(current, endpoint: "/journals/", baseURL: baseURL, request: { HTTPRequest("POST", $0, json: body) },
                                 key: current.delivery.journalKey, profile: profile) != nil else { return }
            try await journal.updateDelivery(entryId, profile: profile) { $0.journalPosted = true }
        }
        let now = sandbox.now(profile: profile)
        try await journal.updateDelivery(entryId, profile: profile) { delivery in
            delivery.status = .delivered
            delivery.lastError = nil
            delivery.deliveredAt = now
        }
    }

    /// One POST with its retries: the 2xx answer, or nil when it did not get through (the entry's
    /// state says why).
    /// - Throws: the store's error when a step cannot be recorded.
    private func post(_ entry: JournalEntry, endpoint: String, baseURL: URL, request: (URL) -> HTTPRequest, key: String,
                      profile: String) async throws -> HTTPResponse? {
        let url = baseURL.appendingPathComponent(String(endpoint.dropFirst())).appendingPathComponent("")
        var post = request(url)
        post.headers.append(("Idempotency-Key", key))
        for attempt in 0...backoff.count {
            if attempt > 0 {
                do { try await Task.sleep(for: backoff[attempt - 1]) } catch { return nil }
            }
            let outcome: Result<HTTPResponse, HTTPClientError>
            do { outcome = .success(try await client.send(post)) } catch { outcome = .failure(error) }
            try await journal.updateDelivery(entry.entryId, profile: profile) { $0.attempts += 1 }
            switch outcome {
            case .success(let answer) where answer.isSuccess:
                return answer
            case .success(let answer):
                try await fail(entry, endpoint: endpoint, status: answer.status, message: Self.message(in: answer), profile: profile)
                return nil
            case .failure(let error):
                try await journal.updateDelivery(entry.entryId, profile: profile) { delivery in
                    delivery.status = .waiting
                    delivery.lastError = "\(endpoint): network error: \(error)"
                }
            }
        }
        return nil
    }

    /// Records a server error and tells the profile's connections.
    private func fail(_ entry: JournalEntry, endpoint: String, status: Int, message: String, profile: String) async throws {
        try await journal.updateDelivery(entry.entryId, profile: profile) { delivery in
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

    /// The server's message: a JSON body's `message` (or `error`), else the body's text.
    static func message(in answer: HTTPResponse) -> String {
        guard let body = try? answer.decode(ServerMessage.self), let message = body.message ?? body.error else { return answer.text }
        return message
    }
}
