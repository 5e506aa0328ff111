import PayRPCSync

/// The subscribers of a store's events in this process, by channel, and what a transaction
/// published while it ran (kept until it commits, dropped when it runs again or rolls back).
package final class StoreEventHub: Sendable {
    private let subscribers = ChannelSubscribers()

    /// A hub with no subscribers.
    package init() {}

    /// Adds a subscriber of `channel` until the subscription is cancelled.
    package func subscribe(_ channel: String, _ handler: @escaping @Sendable (String) -> Void) -> StoreSubscription {
        subscribers.add(channel, handler)
    }

    /// Calls the subscribers of each event's channel, in order.
    package func deliver(_ events: [(channel: String, payload: String)]) {
        guard !events.isEmpty else { return }
        for event in events {
            for handler in subscribers.handlers(event.channel) { handler(event.payload) }
        }
    }
}

/// The events one transaction published, gathered while its body runs (on the store's writer)
/// and delivered after its commit.
package final class PublishedEvents: Sendable {
    private let events = Lock<[(channel: String, payload: String)]>([])

    /// Nothing published yet.
    package init() {}

    /// Forgets what an earlier run of the body published (it runs again).
    package func reset() { events.withLock { $0.removeAll() } }

    /// Adds an event.
    package func append(_ payload: String, on channel: String) { events.withLock { $0.append((channel, payload)) } }

    /// The events published, in order.
    package var all: [(channel: String, payload: String)] { events.withLock { $0 } }
}
