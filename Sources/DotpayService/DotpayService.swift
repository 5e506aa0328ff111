import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import PayRPCStore
import PayRPCSecrets

/// The Dotpay SDK 1.4 for iOS (seed 004, in Polish) as JSON-RPC: settings, channels and payments,
/// 1Click cards (internal and external), Masterpass authorization, the payment history and its
/// observers, refunds, and the shop's URLC notifications, on a deterministic sandbox.
///
/// Settings, cards, the history and the outbox of URLC notifications live in the store per
/// profile. Payment ids, `control` values and card ids come from the profile's seeded streams; a
/// payment that completes later does so on the profile's sandbox clock. Card numbers are kept only
/// masked with a keyed hash, CVVs never, the shop's PIN only sealed. Delegate callbacks are pushed
/// to every connection of the profile, on every gateway of the store (history callbacks to its
/// observers, on every gateway too). Each method's handler
/// is a requirement of the generated ``DotpayHandlers``.
public struct DotpayService: DotpayHandlers {
    let book: DotpayBook
    let sandbox: DotpaySandboxData
    /// The magic amounts, by amount.
    let magic: MagicTable<Amount, MagicAmount>
    let secrets: SecretHasher
    /// Every connection of each profile: the delegate callbacks go to all of them.
    let connections: ConnectionDirectory
    /// The connections observing the payment history, on every gateway.
    let observers: HistoryObservers
    let urlc: UrlcDelivery
    let masterpass = MasterpassAuthorizations()
    /// The store's event channel of the callbacks to a profile's connections (card callbacks and
    /// URLC failures), by which they reach the profile's connections on every gateway.
    static let callbacksChannel = "dotpay.callbacks"
    /// When each profile's next payment completes, so that a clock move reads the store only then.
    let due: DueCompletions
    /// The delivery of every profile's undelivered URLC notifications that starting the service
    /// began (nil unless `resendAtStart`): what a caller awaits instead of polling.
    public let startupDelivery: Task<Void, Never>?

    /// How URLC notifications are sent.
    public struct Delivery: Sendable {
        /// How long one POST may take.
        public var timeout = HTTPClient.defaultTimeout
        /// The waits between the tries of a POST that got no answer.
        public var backoff: [Duration] = [.milliseconds(100), .milliseconds(200), .milliseconds(400)]
        /// Whether the service serves (false: built only to describe its methods): it then sends
        /// the notifications left waiting and completes payments when a sandbox clock moves.
        public var serving = true
        /// Where deliveries that cannot be recorded are reported.
        public var logger = Logger(label: "payrpc.dotpay")

        /// The defaults: ``HTTPClient/defaultTimeout`` per POST, three retries after 0.1, 0.2 and 0.4 s, serving.
        public init() {}
    }

    /// - Parameters:
    ///   - store: where settings, cards, the history and the URLC outbox are kept.
    ///   - sandbox: languages, currencies, channels and magic values.
    ///   - secrets: the data directory's keyed hasher (card numbers) and sealer (the shop's PIN).
    ///   - environment: the profiles' sandbox clocks (deliveries, payments completing later) and
    ///     the connections the delegate callbacks go to.
    ///   - delivery: how URLC notifications are sent.
    public init(
        store: any StateStore, sandbox: DotpaySandboxData, secrets: SecretHasher, environment: ServiceEnvironment,
        delivery: Delivery = Delivery()
    ) {
        let (controls, connections) = (environment.sandbox, environment.connections)
        let audience = ProfileAudience(store: store, connections: connections, channel: Self.callbacksChannel)
        let shared =
            delivery.serving && connections.acrossGateways
            ? SharedDeliveries(
                store: store, outbox: UrlcNotification.namespace, tryTimeout: delivery.timeout, logger: delivery.logger)
            : nil
        let book = DotpayBook(store: store, audience: audience, deliveries: shared)
        let urlc = UrlcDelivery(
            book: book, retry: DeliveryRetry(client: HTTPClient(timeout: delivery.timeout), backoff: delivery.backoff),
            secrets: secrets, audience: audience, clock: controls, logger: delivery.logger)
        self.book = book
        self.sandbox = sandbox
        self.magic = MagicTable(sandbox.magicAmounts, key: \.amount)
        self.secrets = secrets
        self.connections = connections
        self.observers = HistoryObservers(store: store, connections: connections)
        self.urlc = urlc
        let due = DueCompletions()
        self.due = due
        if delivery.serving {
            due.listen(to: store)
            controls.onClockChange { profile, now in
                guard due.mayBeDue(profile: profile, at: now) else { return }
                urlc.runner.start { await Self.completeDuePayments(profile: profile, now: now, urlc: urlc, due: due) }
            }
            urlc.takeOver()
            startupDelivery = urlc.runner.start { await urlc.resendAll() }
        } else {
            startupDelivery = nil
        }
    }

    // MARK: Settings state

    /// The profile's settings (defaults when none are stored); the caller's connection joins the
    /// profile's notification audience.
    func settings(_ context: RequestContext) async throws -> DotpaySettings {
        return try await book.settings(context.profile)
    }

    /// Changes the profile's settings atomically.
    func updateSettings<R: Sendable>(
        _ context: RequestContext,
        _ body: @escaping @Sendable (inout DotpaySettings) throws -> R
    ) async throws -> R {
        return try await book.updateSettings(context.profile, body)
    }
}
