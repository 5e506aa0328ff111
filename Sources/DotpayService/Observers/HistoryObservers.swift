import PayRPCCore
import PayRPCSync

/// The connections that registered as observers of the payment history
/// (`dotpay.paymentHistory.registerObserver`): the only ones told that a payment's summary
/// changed. A connection leaves when it unregisters or closes; the profile it is told about is
/// the one it has when the change happens.
final class HistoryObservers: Sendable {
    private let observing = Lock<Set<UInt64>>([])

    /// Registers the connection (once), forgetting it when it closes.
    func register(_ session: ConnectionSession) {
        let isNew = observing.withLock { $0.insert(session.id).inserted }
        if isNew { session.onClose { [weak self] in _ = self?.observing.withLock { $0.remove(session.id) } } }
    }

    /// Unregisters the connection.
    func unregister(_ session: ConnectionSession) {
        _ = observing.withLock { $0.remove(session.id) }
    }

    /// Sends a notification to the observers among the profile's connections (none waits for a
    /// later observer).
    func broadcast<N: RPCNotification>(
        _ notification: N.Type, _ payload: N.Payload, profile: String,
        in connections: ConnectionDirectory
    ) {
        let observers = observing.withLock { $0 }
        for session in connections.sessions(profile: profile) where observers.contains(session.id) {
            _ = session.notify(notification, payload)
        }
    }
}
