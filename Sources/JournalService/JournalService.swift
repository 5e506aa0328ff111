import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import PayRPCStore
import PayRPCSecrets

/// The payment journal of seed 002 as JSON-RPC: the `opener://` → `linkPayment://` hand-off, the
/// Payment Application's callback, the journal, and delivery to the `/payments/` + `/journals/`
/// Web API that never loses or doubles a payment.
///
/// Entries and their outboxes are one store document each; delivery runs as tasks with a real
/// HTTP client (`URLSession`), retried with stable idempotency keys, and restarts at start-up for
/// whatever was left waiting. Each method's handler is a requirement of the generated
/// ``JournalHandlers``.
public struct JournalService: JournalHandlers, GatewayService {
    let journal: JournalBook
    let delivery: JournalDelivery
    /// The store's event channel of `journal.syncFailed`, by which it reaches the profile's
    /// connections on every gateway.
    static let callbacksChannel = "journal.notices"
    /// The callbacks (`journal.syncFailed`) to every connection of a profile, on every gateway.
    let audience: ProfileAudience
    /// Signalled once ``run()`` listens and every entry left waiting was tried.
    public let readiness = ServiceReadiness()

    public static let name = "journal"
    /// `journal`: -33200…-33299.
    public static let codeRange = ServiceCodeRange(service: name, first: -33200)

    /// Builds the service; it starts nothing (``run()`` does).
    /// - Parameter context: the store (entries, outboxes, settings); the sealer of the profiles'
    ///   backend URLs; the profiles' clocks (entry times) and generators; the connections
    ///   `journal.syncFailed` goes to; the backend (`--journal-backend`), the sandbox Web API,
    ///   the Web API timeout and retry waits; the logger of deliveries that cannot be recorded.
    ///   When gateways share the store, a network retry is armed durably, and this gateway makes
    ///   the retries of gateways that died before making them.
    public init(context: ServiceContext) {
        let settings = context.settings
        journal = JournalBook(store: context.store, secrets: context.secrets)
        let configuration = JournalDelivery.Configuration(
            retry: DeliveryRetry(client: context.httpClient, backoff: settings.retryBackoff),
            serverBackend: settings.backend?.absoluteString, sandboxWebAPI: settings.sandboxWebAPI,
            sharedStore: context.connections.acrossGateways)
        audience = ProfileAudience(store: context.store, connections: context.connections, channel: Self.callbacksChannel)
        delivery = JournalDelivery(
            journal: journal, configuration: configuration, audience: audience, sandbox: context.sandbox,
            logger: context.logger)
    }

    /// Listens to the other gateways' callbacks, makes the retries of dead gateways and resends
    /// every profile's waiting entries; on cancellation ends all of it (a delivery at its next wait).
    public func run() async throws {
        let delivery = delivery
        try await BackgroundWork.run(readiness: readiness) { work in
            work.hold(audience.listen())
            work.hold(delivery.takeOver())
            let waiting = await delivery.waitingAtStartUp()
            work.catchUp(delivery.runner.start { await delivery.resendAll(waiting) })
            work.onStop { await delivery.runner.stop() }
        }
    }

    // MARK: Hand-off

    /// `journal.openURL`.
    public func openURL(_ params: OpenURL.Params, _ context: RequestContext) throws -> OpenURL.Result {
        let url = try HandoffURL.parse(params.url, scheme: "opener")
        let type = try HandoffRules.check(url)
        return OpenURL.Result(url: url.rewritten(scheme: "linkPayment", fragment: "opener://"), type: type)
    }

    /// `sandbox.journal.completePayment`.
    public func sandboxCompletePayment(
        _ params: SandboxCompletePayment.Params,
        _ context: RequestContext
    ) throws -> SandboxCompletePayment.Result {
        let url = try HandoffURL.parse(params.url, scheme: "linkPayment")
        guard url.fragment == "opener://" else {
            throw JournalError(
                .invalidURL, "a hand-off URL ends with #opener://", parameter: "fragment", expected: "opener://",
                found: url.fragment ?? "")
        }
        _ = try HandoffRules.check(url)
        let number = context.randomString("journal.paymentNumber", length: 12, alphabet: "0123456789")
        let extra = "Payment_Result=\(HandoffURL.encode(params.result))&Payment_Number=\(number)"
        let query = url.rawQuery.isEmpty ? extra : url.rawQuery + "&" + extra
        return SandboxCompletePayment.Result(callbackURL: "opener://open?\(query)")
    }

    // MARK: Payments

    /// `journal.pay`.
    public func pay(_ params: Pay.Params, _ context: RequestContext) async throws -> Pay.Result {
        let accountFields = [params.receiveAgencyCode, params.receiveAgencyName, params.consignorName, params.consignorCode]
        switch params.type {
        case .cash, .creditCard:
            guard accountFields.allSatisfy({ $0 == nil }) else {
                throw JournalError(.invalidPayment, "account fields belong to an account payment only", parameter: "type")
            }
            let yen = try wholeYen(params.amount)
            if params.type == .cash {
                let entry = newEntry(type: .cash, amount: yen, parameters: [:], result: "approved", context)
                return Pay.Result(entry: try await savedAndDelivered(entry, context), url: nil)
            }
            let url = HandoffURL.write(
                scheme: "linkPayment",
                [
                    ("Return_Type", "4"), ("Payment_Service", "010"), ("Transaction_Type", "1"), ("Amount", yen.description),
                    ("Startup_Mode", "1"),
                ], fragment: "opener://")
            return Pay.Result(entry: nil, url: url)
        case .account:
            guard params.amount == nil else {
                throw JournalError(
                    .invalidPayment, "an account payment's URL carries no amount (the document's account URL has none)",
                    parameter: "amount")
            }
            guard let code = params.receiveAgencyCode, let name = params.receiveAgencyName,
                let consignor = params.consignorName, let consignorCode = params.consignorCode
            else {
                throw JournalError(
                    .invalidPayment,
                    "an account payment needs receiveAgencyCode, receiveAgencyName, consignorName and consignorCode",
                    parameter: "receiveAgencyCode")
            }
            let url = HandoffURL.write(
                scheme: "linkPayment",
                [
                    ("Return_Type", "4"), ("Payment_Service", "060"), ("Transaction_Type", "1"), ("Receive_Agency_Code", code),
                    ("Receive_Agency_Name", name), ("Consignor_Name", consignor), ("Consignor_Code", consignorCode),
                    ("Startup_Mode", "1"),
                ], fragment: "opener://")
            return Pay.Result(entry: nil, url: url)
        }
    }

    /// `journal.handleCallback`.
    public func handleCallback(_ params: HandleCallback.Params, _ context: RequestContext) async throws -> JournalEntry {
        let url = try HandoffURL.parse(params.url, scheme: "opener")
        let type = try HandoffRules.check(url)
        guard let result = url.value("Payment_Result") else {
            throw JournalError(
                .invalidURL, "the callback must say how the payment ended", parameter: "Payment_Result",
                expected: "approved, declined or cancelled")
        }
        guard ["approved", "declined", "cancelled"].contains(result) else {
            throw JournalError(
                .invalidURL, "Payment_Result must be approved, declined or cancelled", parameter: "Payment_Result",
                expected: "approved, declined or cancelled", found: result)
        }
        var parameters: [String: String] = [:]
        for parameter in url.parameters { parameters[parameter.name] = parameter.value }
        let amount = url.value("Amount").flatMap { Amount($0) }
        guard let number = url.value("Payment_Number") else {
            let entry = newEntry(type: type, amount: amount, parameters: parameters, result: result, context)
            return try await savedAndDelivered(entry, context)
        }
        if let earlier = try await journal.callbackEntry(paymentNumber: number, profile: context.profile) {
            return try await handledAgain(earlier, parameters: parameters, context)
        }
        let entry = newEntry(type: type, amount: amount, parameters: parameters, result: result, context)
        let first = delivery.shared?.firstTry(item: entry.entryId, profile: context.profile)
        let stored = try await journal.saveCallback(
            entry, paymentNumber: number, profile: context.profile, publishing: delivery.arming(first))
        guard stored.saved else { return try await handledAgain(stored.entry, parameters: parameters, context) }
        return try await delivered(entry, context, armed: first)
    }

    // MARK: Journal

    /// `journal.list`.
    public func list(_ params: List.Params, _ context: RequestContext) async throws -> List.Result {
        var entries = try await journal.all(profile: context.profile).filter { entry in
            (params.type.map { entry.type == $0 } ?? true) && (params.status.map { entry.delivery.status == $0 } ?? true)
        }
        if let cursor = params.cursor {
            guard let index = entries.firstIndex(where: { $0.entryId == cursor }) else {
                throw JournalError(.entryNotFound, "the cursor \(cursor) is not an entry of this list")
            }
            entries.removeFirst(index + 1)
        }
        let page = Array(entries.prefix(params.limit))
        return List.Result(entries: page, nextCursor: entries.count > page.count ? page.last?.entryId : nil)
    }

    /// `journal.get`.
    public func get(_ params: Get.Params, _ context: RequestContext) async throws -> JournalEntry {
        guard let entry = try await journal.entry(params.entryId, profile: context.profile) else {
            throw JournalError(.entryNotFound, "no entry \(params.entryId) on this profile")
        }
        return entry
    }

    /// `journal.sync`.
    public func sync(_ params: NoParams, _ context: RequestContext) async throws -> Sync.Result {
        let tried = try await delivery.deliverWaiting(profile: context.profile)
        let delivered = tried.filter(\.isDelivered).count
        return Sync.Result(attempted: tried.count, delivered: delivered, waiting: tried.count - delivered)
    }

    /// `journal.configure`.
    public func configure(_ params: Configure.Params, _ context: RequestContext) async throws -> NoResult {
        if let backend = params.backendURL, URL(string: backend)?.scheme == nil {
            throw RPCError.invalidParams([
                SchemaViolation(pointer: "/backendURL", keyword: "format", message: "not an absolute URL")
            ])
        }
        try await journal.configure(
            JournalSettings(backendURL: params.backendURL, paymentIdPointer: params.paymentIdPointer),
            profile: context.profile)
        return NoResult()
    }

    /// `sandbox.journal.setNextAnswers`.
    public func sandboxSetNextAnswers(
        _ params: SandboxSetNextAnswers.Params,
        _ context: RequestContext
    ) async throws -> SandboxSetNextAnswers.Result {
        let violations = params.answers.enumerated().flatMap { index, answer in answer.violations(at: "/answers/\(index)") }
        guard violations.isEmpty else { throw RPCError.invalidParams(violations) }
        try await journal.setSandboxAnswers(params.answers, profile: context.profile)
        return SandboxSetNextAnswers.Result(nextAnswers: params.answers)
    }

    // MARK: Helpers

    /// The amount as whole yen (the journal's one currency, checked by the kit's money check:
    /// `"10000.00"` is 10000 yen), or `Invalid payment`.
    func wholeYen(_ amount: Amount?) throws(JournalError) -> Amount {
        guard let amount else { throw JournalError(.invalidPayment, "the payment needs an amount", parameter: "amount") }
        guard let yen = Money.minorUnits(of: amount, in: .JPY, rule: .numeric), yen > 0 else {
            throw JournalError(
                .invalidPayment, "the amount must be whole yen above zero", parameter: "amount",
                expected: "digits", found: amount.description)
        }
        return Money(minorUnits: yen, currency: .JPY).amount
    }

    /// A new entry with its outbox: its id and idempotency keys drawn from the profile's stream.
    func newEntry(
        type: PaymentType, amount: Amount?, parameters: [String: String], result: String,
        _ context: RequestContext
    ) -> JournalEntry {
        let keyAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
        return JournalEntry(
            entryId: "je_" + context.randomString("journal.entryId", length: 16, alphabet: keyAlphabet), type: type,
            amount: amount, parameters: parameters, result: result, createdAt: context.now,
            delivery: Delivery(
                status: .waiting, paymentPosted: false, paymentId: nil, paymentAnswer: nil, journalPosted: false,
                paymentKey: "pay-" + context.randomString("journal.idempotencyKey", length: 24, alphabet: keyAlphabet),
                journalKey: "jnl-" + context.randomString("journal.idempotencyKey", length: 24, alphabet: keyAlphabet),
                attempts: 0, lastError: nil, deliveredAt: nil))
    }

    /// Saves a new entry (on a shared store with its first try armed in the same transaction) and
    /// answers it as ``delivered(_:_:armed:)`` does.
    func savedAndDelivered(_ entry: JournalEntry, _ context: RequestContext) async throws -> JournalEntry {
        let first = delivery.shared?.firstTry(item: entry.entryId, profile: context.profile)
        try await journal.save(entry, profile: context.profile, publishing: delivery.arming(first))
        return try await delivered(entry, context, armed: first)
    }

    /// Delivers a saved entry and answers it as stored once its delivery has been tried: what
    /// `journal.list` shows from then on, until the next `journal.sync` or start. `armed`: the
    /// first try its save armed (shared store).
    func delivered(_ entry: JournalEntry, _ context: RequestContext, armed: DeliveryTimer? = nil) async throws
        -> JournalEntry
    {
        await delivery.deliver(entry.entryId, profile: context.profile, armed: armed).value
        return try await journal.entry(entry.entryId, profile: context.profile) ?? entry
    }

    /// The same callback handled again: the entry it made, when the parameters are the same, as it
    /// is after a delivery of it (joined when one runs; nothing is posted for a delivered entry, and
    /// an accepted POST is never posted again); `Invalid URL` when they differ.
    func handledAgain(_ earlier: JournalEntry, parameters: [String: String], _ context: RequestContext) async throws
        -> JournalEntry
    {
        guard earlier.parameters == parameters else {
            throw JournalError(
                .invalidURL,
                "Payment_Number \(earlier.parameters["Payment_Number"] ?? "") was handled before as entry \(earlier.entryId), with other parameters",
                parameter: "Payment_Number", found: earlier.parameters["Payment_Number"])
        }
        return try await delivered(earlier, context)
    }
}
