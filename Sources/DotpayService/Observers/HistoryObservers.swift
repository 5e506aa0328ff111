import PayRPCCore
import PayRPCServiceKit
import PayRPCStore
import PayRPCSync

/// The connections that registered as observers of the payment history
/// (`dotpay.paymentHistory.registerObserver`): the only ones told that a payment's summary
/// changed. A connection leaves when it unregisters or closes; the profile it is told about is
/// the one it has when the change happens.
///
/// A change is told to the observers of the profile on every gateway of the store, once each:
/// its notification is published in the transaction that records it (``ProfilePush/publish(in:)``,
/// the kit's ``ProfileAudience`` on channel ``channel``) and sent here after it commits
/// (``deliver(_:)``); every other gateway sends it to its own observers of the profile.
final class HistoryObservers: Sendable {
    /// The store's event channel of the history's notifications.
    static let channel = "dotpay.history"
    /// The ids of the observing connections here.
    private final class Observing: Sendable {
        private let ids = Lock<Set<UInt64>>([])
        /// Adds `id`; whether it was new.
        func insert(_ id: UInt64) -> Bool { ids.withLock { $0.insert(id).inserted } }
        func remove(_ id: UInt64) { _ = ids.withLock { $0.remove(id) } }
        func contains(_ id: UInt64) -> Bool { ids.withLock { $0.contains(id) } }
        var all: Set<UInt64> { ids.withLock { $0 } }
    }

    private let observing = Observing()
    /// The observers of each profile on every gateway.
    let audience: ProfileAudience

    /// The observers of the history of `store`'s profiles, on `connections`.
    init(store: any StateStore, connections: ConnectionDirectory) {
        let observing = self.observing
        audience = ProfileAudience(
            store: store, connections: connections, channel: Self.channel,
            only: { session in observing.contains(session.id) })
    }

    /// Registers the connection (once), forgetting it when it closes.
    func register(_ session: ConnectionSession) {
        if observing.insert(session.id) { session.onClose { [weak self] in self?.observing.remove(session.id) } }
    }

    /// Unregisters the connection.
    func unregister(_ session: ConnectionSession) {
        observing.remove(session.id)
    }

    /// The notification `payload` for the observers of `profile`.
    func push<N: RPCNotification>(_ notification: N.Type, _ payload: N.Payload, profile: String) -> ProfilePush {
        audience.push(notification, payload, profile: profile)
    }

    /// Sends the notification to the observers among its profile's connections here (none waits
    /// for a later observer); the other gateways' hear it from the store.
    func deliver(_ push: ProfilePush) {
        let observers = observing.all
        audience.deliver(push) { observers.contains($0.id) }
    }
}
