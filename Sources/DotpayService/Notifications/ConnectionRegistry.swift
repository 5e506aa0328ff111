import PayRPCCore
import Synchronization

/// The open connections of each profile that used dotpay, and which of them observe the payment
/// history: the SDK's delegate and observer callbacks go to every connection of the profile (or
/// to every observer), not only to the caller.
///
/// A connection joins on its first dotpay call and leaves when it closes.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        let session: ConnectionSession
        var observesHistory = false
    }

    private let entries = Mutex<[UInt64: Entry]>([:])

    /// Remembers the caller's connection (once), forgetting it when it closes.
    func track(_ session: ConnectionSession) {
        let isNew = entries.withLock { entries in
            guard entries[session.id] == nil else { return false }
            entries[session.id] = Entry(session: session)
            return true
        }
        if isNew {
            session.onClose { [weak self] in _ = self?.entries.withLock { $0.removeValue(forKey: session.id) } }
        }
    }

    /// Makes the connection an observer of the history, or not.
    func setObserving(_ session: ConnectionSession, _ observing: Bool) {
        track(session)
        entries.withLock { $0[session.id]?.observesHistory = observing }
    }

    /// The open connections of `profile` (observers only when `observersOnly`).
    func sessions(profile: String, observersOnly: Bool = false) -> [ConnectionSession] {
        entries.withLock { entries in
            entries.values.filter { ($0.observesHistory || !observersOnly) && $0.session.profile == profile && $0.session.isOpen }
                .map(\.session)
        }
    }

    /// Sends a notification to every connection of `profile` (or every observer).
    func broadcast<N: RPCNotification>(_ notification: N.Type, _ payload: N.Payload, profile: String,
                                       observersOnly: Bool = false) {
        for session in sessions(profile: profile, observersOnly: observersOnly) { _ = session.notify(notification, payload) }
    }
}
