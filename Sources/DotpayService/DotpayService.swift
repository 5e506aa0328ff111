import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
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
public struct DotpayService: DotpayHandlers, GatewayService {
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
    /// The callbacks to every connection of a profile, on every gateway.
    let audience: ProfileAudience
    let store: any StateStore
    let controls: SandboxControls
    /// Signalled once ``run()`` listens and the URLC notifications left waiting were tried.
    public let readiness = ServiceReadiness()

    public static let name = "dotpay"
    /// `dotpay`: -33400…-33499.
    public static let codeRange = ServiceCodeRange(service: name, first: -33400)
    public static let takesSandboxData = true

    /// Builds the service; it starts nothing (``run()`` does).
    /// - Parameter context: the store (settings, cards, the history, the URLC outbox); the keyed
    ///   hasher (card numbers) and sealer (the shop's PIN); the profiles' sandbox clocks
    ///   (deliveries, payments completing later); the connections the delegate callbacks go to;
    ///   the sandbox data file, the Web API timeout and retry waits; the logger of deliveries.
    /// - Throws: ``SandboxDataError`` when the sandbox data file does not read.
    public init(context: ServiceContext) throws {
        let (store, connections) = (context.store, context.connections)
        let audience = ProfileAudience(store: store, connections: connections, channel: Self.callbacksChannel)
        let shared =
            connections.acrossGateways
            ? SharedDeliveries(
                store: store, outbox: UrlcNotification.namespace, tryTimeout: context.settings.webAPITimeout,
                logger: context.logger)
            : nil
        let book = DotpayBook(store: store, audience: audience, deliveries: shared)
        let sandbox = try context.sandboxData(DotpaySandboxData.self)
        self.urlc = UrlcDelivery(
            book: book, retry: DeliveryRetry(client: context.httpClient, backoff: context.settings.retryBackoff),
            secrets: context.secrets, audience: audience, clock: context.sandbox, logger: context.logger)
        self.book = book
        self.sandbox = sandbox
        self.magic = MagicTable(sandbox.magicAmounts, key: \.amount)
        self.secrets = context.secrets
        self.connections = connections
        self.observers = HistoryObservers(store: store, connections: connections)
        self.due = DueCompletions()
        self.audience = audience
        self.store = store
        self.controls = context.sandbox
    }

    /// Listens to the other gateways' callbacks and planned completions, completes payments when a
    /// sandbox clock moves, makes the URLC tries of dead gateways and resends the notifications
    /// left waiting; on cancellation ends all of it (a delivery at its next wait).
    public func run() async throws {
        let (urlc, due, controls) = (urlc, due, controls)
        try await BackgroundWork.run(readiness: readiness) { work in
            work.hold(audience.listen())
            work.hold(observers.audience.listen())
            work.hold(due.listen(to: store))
            let observer = controls.onClockChange { profile, now in
                guard due.mayBeDue(profile: profile, at: now) else { return }
                urlc.runner.start { await Self.completeDuePayments(profile: profile, now: now, urlc: urlc, due: due) }
            }
            work.hold(urlc.takeOver())
            let waiting = await urlc.waitingAtStartUp()
            work.catchUp(urlc.runner.start { await urlc.resendAll(waiting) })
            work.onStop {
                controls.removeClockObserver(observer)
                await urlc.runner.stop()
            }
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
