import PayRPCSync

/// The subscribers of a store's events in this process, by channel, and what a transaction
/// published while it ran (kept until it commits, dropped when it runs again or rolls back).
final class StoreEventHub: Sendable {
    private let subscribers = ChannelSubscribers()

    /// Adds a subscriber of `channel` until the subscription is cancelled.
    func subscribe(_ channel: String, _ handler: @escaping @Sendable (String) -> Void) -> StoreSubscription {
        subscribers.add(channel, handler)
    }

    /// Calls the subscribers of each event's channel, in order.
    func deliver(_ events: [(channel: String, payload: String)]) {
        guard !events.isEmpty else { return }
        for event in events {
            for handler in subscribers.handlers(event.channel) { handler(event.payload) }
        }
    }
}

/// The events one transaction published, gathered while its body runs (on the store's writer)
/// and delivered after its commit.
final class PublishedEvents: Sendable {
    private let events = Lock<[(channel: String, payload: String)]>([])

    /// Forgets what an earlier run of the body published (it runs again).
    func reset() { events.withLock { $0.removeAll() } }

    /// Adds an event.
    func append(_ payload: String, on channel: String) { events.withLock { $0.append((channel, payload)) } }

    /// The events published, in order.
    var all: [(channel: String, payload: String)] { events.withLock { $0 } }
}
