import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCStore

/// Sends journal entries to the Web API, as the document says: `POST /payments/` with the
/// callback's parameters, then (card and account) `POST /journals/` with the payment id the first
/// answer carried. A network failure is retried three times with backoff, then the entry waits
/// for the next start or `journal.sync`; a server error is reported (`journal.syncFailed`, to the
/// profile's connections on every gateway of the store) and waits likewise.
///
/// The Web API is the profile's backend URL, else the server's, else (sandbox mode) the built-in
/// ``SandboxWebAPI``; the rules are the same for all three. Every POST carries the
/// `Idempotency-Key` stored in the entry's outbox, the same on every retry and after any restart,
/// so the backend never sees a payment twice; each step is recorded in the entry's document
/// before the next starts, and a POST that was accepted is never sent again. When and how often
/// an entry is sent is the kit's ``OutboxDelivery``, as for every outbox. On a store that
/// several gateways share, every try is owned by one live gateway (the kit's
/// ``SharedDeliveries``): its first try is armed in the transaction that saves the entry, each
/// retry in the one that records the failed try before it, and the POST to `/journals/` in the
/// one that records the `/payments/` try that was accepted (with the payment posted, its id and
/// answer); when the gateway making a try dies, another makes it.
final class JournalDelivery: OutboxDelivery {
    let journal: JournalBook
    /// The HTTP client and the waits between the retries of a network failure.
    let retry: DeliveryRetry
    /// The deliveries running, one per entry.
    let runner = DeliveryRunner()
    /// The built-in Web API; nil when the server runs without its sandboxes.
    let sandboxWebAPI: SandboxWebAPI?
    /// The server's backend (`serve --journal-backend`), used when the profile set none.
    let serverBackend: String?
    /// Every connection of each profile, on every gateway: `journal.syncFailed` goes to all of them.
    let audience: ProfileAudience
    let sandbox: SandboxControls
    let logger: Logger
    /// The tries across gateways, when gateways share the store (nil: only this one).
    let shared: SharedDeliveries?

    /// Where one delivery posts.
    private enum Target {
        case http(URL)
        case sandbox(SandboxWebAPI)
    }

    /// What the service's configuration gives a delivery.
    struct Configuration {
        /// The HTTP client and the waits between the retries of a network failure.
        var retry: DeliveryRetry
        var serverBackend: String?
        var sandboxWebAPI: Bool
        /// Whether other gateways share the store (the retries are then armed durably).
        var sharedStore = false
    }

    init(
        journal: JournalBook, configuration: Configuration, audience: ProfileAudience, sandbox: SandboxControls,
        logger: Logger
    ) {
        self.journal = journal
        self.retry = configuration.retry
        self.sandboxWebAPI =
            configuration.sandboxWebAPI
            ? SandboxWebAPI(journal: journal, sandbox: sandbox, timeout: configuration.retry.client.timeout) : nil
        self.serverBackend = configuration.serverBackend
        self.audience = audience
        self.sandbox = sandbox
        self.logger = logger
        self.shared =
            configuration.sharedStore
            ? SharedDeliveries(
                store: journal.store, outbox: JournalEntry.namespace, tryTimeout: configuration.retry.client.timeout,
                logger: logger) : nil
    }

    /// What the transaction that saves a new entry publishes: its delivery run begun with its
    /// first try, `first` (nil on the embedded store).
    func arming(_ first: DeliveryTimer?) -> DeliveryRetry.Publishing? {
        guard let first, let shared else { return nil }
        return { transaction in try shared.begin(first, in: transaction) }
    }

    /// The entries.
    var outbox: Outbox<JournalEntry> { journal.outbox }

    /// Runs the entry's remaining steps, recording each; the first POST begins at its try `first`
    /// (a try resumed where another gateway left it), its tries claimed by `claims` (shared store).
    /// - Throws: the store's error when a step cannot be recorded.
    func send(_ entryId: String, profile: String, from first: Int, claims: DeliveryClaims?) async throws {
        var first = first
        guard var current = try await journal.entry(entryId, profile: profile), current.delivery.status != .delivered else {
            return
        }
        let settings = try await journal.settings(profile: profile)
        guard let target = target(settings) else {
            try await journal.updateDelivery(entryId, profile: profile) { $0.status = .noBackend }
            return
        }
        let lookup = PaymentIDLookup(pointer: settings.paymentIdPointer)
        var answered: HTTPResponse?
        if !current.delivery.paymentPosted {
            let entry = current
            // Accepted: recorded with the try, before anything else, so that it is never posted
            // again; the POST to /journals/ that follows is armed in that transaction (shared store).
            // A cash payment has no /journals/ POST: that record is its delivery's end too.
            let sandbox = self.sandbox
            let accepted = Acceptance(armsNext: entry.type != .cash) { answer in
                let body = Self.json(answer)
                let paymentId = lookup.id(in: body)
                let keep = paymentId == nil && entry.type != .cash ? body : nil
                let deliveredAt = entry.type == .cash ? sandbox.now(profile: profile) : nil
                return { delivery in
                    delivery.paymentPosted = true
                    delivery.paymentId = paymentId
                    delivery.paymentAnswer = keep
                    if let deliveredAt { delivery.delivered(at: deliveredAt) }
                }
            }
            guard
                let (answer, posted) = try await post(
                    current, .payments, to: target,
                    request: { HTTPRequest("POST", $0, json: Self.paymentBody(entry)) },
                    key: current.delivery.paymentKey, profile: profile, from: first, claims: claims, accepted: accepted)
            else { return }
            first = 0
            answered = answer
            current = posted
        }
        if current.type != .cash && current.delivery.paymentId == nil {
            guard let found = try await findPaymentId(current, lookup: lookup, answered: answered, profile: profile) else {
                return
            }
            current = found
        }
        if current.type != .cash && !current.delivery.journalPosted {
            let body = JournalPost(paymentId: current.delivery.paymentId ?? "", entryId: current.entryId)
            // Accepted: the entry is delivered in the transaction that records the try (a gateway
            // that dies after it leaves nothing half-done, and one that dies before it leaves the
            // try to a survivor).
            let sandbox = self.sandbox
            let accepted = Acceptance(armsNext: false) { _ in
                let deliveredAt = sandbox.now(profile: profile)
                return { delivery in
                    delivery.journalPosted = true
                    delivery.delivered(at: deliveredAt)
                }
            }
            guard
                let (_, posted) = try await post(
                    current, .journals, to: target, request: { HTTPRequest("POST", $0, json: body) },
                    key: current.delivery.journalKey, profile: profile, from: first, claims: claims, accepted: accepted)
            else { return }
            current = posted
        }
        // An entry recorded between the steps by an earlier version (both POSTs accepted, not yet
        // marked delivered) ends here.
        guard current.delivery.status != .delivered else { return }
        let now = sandbox.now(profile: profile)
        try await journal.updateDelivery(entryId, profile: profile) { $0.delivered(at: now) }
    }

    /// A card or account payment accepted without a payment id where the profile looks: the kept
    /// answer is read again with the profile's lookup (it may have been corrected since), with no
    /// POST. Found: recorded, and the entry comes back to go on. Not found: the entry is
    /// `paymentIdMissing`, and when the answer just came (`answered`) the profile hears it.
    /// - Throws: the store's error when a step cannot be recorded.
    private func findPaymentId(
        _ entry: JournalEntry, lookup: PaymentIDLookup, answered: HTTPResponse?,
        profile: String
    ) async throws -> JournalEntry? {
        if let paymentId = lookup.id(in: entry.delivery.paymentAnswer) {
            return try await journal.updateDelivery(entry.entryId, profile: profile) { delivery in
                delivery.paymentId = paymentId
                delivery.paymentAnswer = nil
            }
        }
        let problem = "the answer carried no payment id at \(lookup.described)"
        let push = answered.map { answered in
            audience.push(
                SyncFailed.self,
                .init(
                    entryId: entry.entryId, endpoint: WebAPIEndpoint.payments.rawValue,
                    httpStatus: answered.status, message: problem), profile: profile)
        }
        try await journal.updateDelivery(entry.entryId, profile: profile, announcing: push) { delivery in
            delivery.status = .paymentIdMissing
            delivery.lastError = "\(WebAPIEndpoint.payments.rawValue): \(problem)"
        }
        if let push { audience.deliver(push) }
        return nil
    }

    /// Where the profile's entries go: its backend, the server's, else the built-in sandbox Web API
    /// (nil: none, without sandboxes).
    private func target(_ settings: JournalSettings) -> Target? {
        if let base = settings.backendURL ?? serverBackend, let url = URL(string: base) { return .http(url) }
        return sandboxWebAPI.map { .sandbox($0) }
    }

    /// What the transaction that records a POST's accepted (2xx) try writes besides the try (made
    /// from the answer), and whether it arms the first try of the entry's next POST (shared store).
    private struct Acceptance {
        var armsNext: Bool
        var change: (HTTPResponse) -> @Sendable (inout Delivery) -> Void
    }

    /// One POST with its retries from its try `first`: the 2xx answer and the entry as recorded
    /// with it (with `accepted`'s change), or nil when it did not get through (the entry's state
    /// says why). On a shared store each try's outcome is recorded in a transaction that also
    /// announces it made and arms the next try (`claims`, ``DeliveryClaims``): a retry, or after
    /// an accepted try, the next POST's first when `accepted` says so.
    /// - Throws: the store's error when a step cannot be recorded.
    private func post(
        _ entry: JournalEntry, _ endpoint: WebAPIEndpoint, to target: Target,
        request: (URL) -> HTTPRequest, key: String, profile: String, from first: Int, claims: DeliveryClaims?,
        accepted: Acceptance? = nil
    ) async throws -> (HTTPResponse, JournalEntry)? {
        var recorded: JournalEntry?
        func attempted(_ outcome: Result<HTTPResponse, HTTPClientError>, _ recording: TryRecording?) async throws {
            let (accept, publish) = Self.recording(outcome, recording, accepted)
            recorded = try await journal.updateDelivery(entry.entryId, profile: profile, publishing: publish) { delivery in
                delivery.attempts += 1
                if case .failure(let error) = outcome {
                    delivery.status = .waiting
                    delivery.lastError = "\(endpoint.rawValue): network error: \(error)"
                }
                accept?(&delivery)
            }
        }
        let outcome: Result<HTTPResponse, HTTPClientError>
        switch target {
        case .http(let baseURL):
            var post = request(
                baseURL.appendingPathComponent(String(endpoint.rawValue.dropFirst())).appendingPathComponent(""))
            post.headers.append(("Idempotency-Key", key))
            outcome = try await retry.send(post, from: first, claims: claims, attempted: attempted)
        case .sandbox(let webAPI):
            var tries = min(max(0, first), retry.backoff.count)
            let recorder = retry.client.recorder
            outcome = try await retry.run(
                {
                    tries += 1
                    var standIn = request(
                        Self.sandboxWebAPI.appendingPathComponent(String(endpoint.rawValue.dropFirst())).appendingPathComponent(
                            ""))
                    standIn.headers.append(("Idempotency-Key", key))
                    standIn.attempt = tries
                    let started = Date()
                    let answer = try await webAPI.post(endpoint, profile: profile)
                    HTTPExchangeJournal.recordStandIn(standIn, answer, started: started, into: recorder)
                    return answer
                }, from: first, claims: claims, attempted: attempted)
        }
        guard case .success(let answer) = outcome else { return nil }
        if answer.isSuccess { return recorded.map { (answer, $0) } }
        let message = Self.message(in: answer)
        let push = audience.push(
            SyncFailed.self,
            .init(entryId: entry.entryId, endpoint: endpoint.rawValue, httpStatus: answer.status, message: message),
            profile: profile)
        try await journal.updateDelivery(entry.entryId, profile: profile, announcing: push) { delivery in
            delivery.status = .serverError
            delivery.lastError = "\(endpoint.rawValue): HTTP \(answer.status): \(message)"
        }
        audience.deliver(push)
        return nil
    }

    /// Where the call journal says a try answered by the built-in sandbox Web API went.
    static let sandboxWebAPI = URL(string: "sandbox://journal-web-api/")!

    /// What recording a try's `outcome` writes besides the try (an accepted answer's change) and
    /// publishes (shared store: the try made, and the next armed).
    private static func recording(
        _ outcome: Result<HTTPResponse, HTTPClientError>, _ recording: TryRecording?, _ accepted: Acceptance?
    ) -> ((@Sendable (inout Delivery) -> Void)?, DeliveryRetry.Publishing?) {
        guard case .success(let answer) = outcome, answer.isSuccess, let accepted else {
            return (nil, recording?.publishing())
        }
        let next = (index: 0, wait: SharedDeliveries.firstTryGrace)
        return (
            accepted.change(answer),
            accepted.armsNext ? recording?.publishing(thenArming: next) : recording?.publishing()
        )
    }

    /// The `/payments/` body: the callback's parameters, the entry's id, and for cash its type and amount.
    static func paymentBody(_ entry: JournalEntry) -> [String: String] {
        var body = entry.parameters
        body["entry_id"] = entry.entryId
        body["payment_type"] = entry.type.rawValue
        if let amount = entry.amount { body["Amount"] = amount.description }
        return body
    }

    /// An answer's body as JSON; its text as a string when it is not JSON.
    static func json(_ answer: HTTPResponse) -> JSONValue {
        (try? answer.decode(JSONValue.self)) ?? .string(answer.text)
    }

    /// The server's message: a JSON body's `message` (or `error`), else the body's text.
    static func message(in answer: HTTPResponse) -> String {
        guard let body = try? answer.decode(ServerMessage.self), let message = body.message ?? body.error else {
            return answer.text
        }
        return message
    }
}
