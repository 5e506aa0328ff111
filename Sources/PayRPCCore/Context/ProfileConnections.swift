import PayRPCSync

/// The open connections of each profile, for callbacks an SDK makes to every part of the app
/// (a card registered, a delivery failed) rather than to the caller only; and which of them
/// subscribed to a topic (Dotpay's history observers).
///
/// A service tracks the caller's connection on each call; a connection leaves when it closes.
public final class ProfileConnections: Sendable {
    private struct Entry {
        let session: ConnectionSession
        var topics: Set<String> = []
    }

    private let entries = Lock<[UInt64: Entry]>([:])

    public init() {}

    /// Remembers the connection (once), forgetting it when it closes.
    public func track(_ session: ConnectionSession) {
        let isNew = entries.withLock { entries in
            guard entries[session.id] == nil else { return false }
            entries[session.id] = Entry(session: session)
            return true
        }
        if isNew {
            session.onClose { [weak self] in _ = self?.entries.withLock { $0.removeValue(forKey: session.id) } }
        }
    }

    /// Subscribes the connection to `topic`, or unsubscribes it.
    public func setSubscribed(_ session: ConnectionSession, to topic: String, _ subscribed: Bool) {
        track(session)
        entries.withLock { entries in
            if subscribed { entries[session.id]?.topics.insert(topic) } else { entries[session.id]?.topics.remove(topic) }
        }
    }

    /// The open connections of `profile` (only the subscribers of `topic` when one is given).
    public func sessions(profile: String, topic: String? = nil) -> [ConnectionSession] {
        entries.withLock { entries in
            entries.values.filter { entry in
                (topic.map { entry.topics.contains($0) } ?? true) && entry.session.profile == profile && entry.session.isOpen
            }.map(\.session)
        }
    }

    /// Sends a notification to every connection of `profile` (or every subscriber of `topic`).
    public func broadcast<N: RPCNotification>(_ notification: N.Type, _ payload: N.Payload, profile: String,
                                              topic: String? = nil) {
        for session in sessions(profile: profile, topic: topic) { _ = session.notify(notification, payload) }
    }
}
