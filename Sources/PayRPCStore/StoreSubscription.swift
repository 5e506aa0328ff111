import PayRPCSync

/// A subscriber's hold on a store channel (``StateStore/subscribe(_:_:)``): its handler is called
/// until ``cancel()``. A service takes its subscriptions in its `run()` and cancels them when it
/// stops, so that a stopped service hears nothing more.
public final class StoreSubscription: Sendable {
    private let onCancel: Lock<(@Sendable () -> Void)?>

    /// A subscription that `onCancel` ends (called once, by the first ``cancel()``).
    public init(onCancel: @escaping @Sendable () -> Void) { self.onCancel = Lock(onCancel) }

    /// A subscription to a store that never calls its handler (a store that only describes).
    public static var none: StoreSubscription { StoreSubscription {} }

    /// Stops calling the handler; later calls do nothing. A handler already running finishes.
    public func cancel() {
        let end = onCancel.withLock { end -> (@Sendable () -> Void)? in
            defer { end = nil }
            return end
        }
        end?()
    }
}

/// The handlers of a store's channels, in the order they subscribed: what the embedded store's
/// event hub and the shared store's event bus keep, so both hand out the same cancellable
/// ``StoreSubscription``.
package final class ChannelSubscribers: Sendable {
    private struct State {
        var handlers: [String: [(id: UInt64, handler: @Sendable (String) -> Void)]] = [:]
        var next: UInt64 = 0
    }

    private let state = Lock(State())

    package init() {}

    /// Adds `handler` to `channel` until the subscription returned is cancelled.
    package func add(_ channel: String, _ handler: @escaping @Sendable (String) -> Void) -> StoreSubscription {
        let id = state.withLock { state -> UInt64 in
            state.next += 1
            state.handlers[channel, default: []].append((state.next, handler))
            return state.next
        }
        return StoreSubscription { [weak self] in
            self?.state.withLock { state in
                state.handlers[channel]?.removeAll { $0.id == id }
                if state.handlers[channel]?.isEmpty == true { state.handlers[channel] = nil }
            }
        }
    }

    /// The handlers of `channel` now, in order.
    package func handlers(_ channel: String) -> [@Sendable (String) -> Void] {
        state.withLock { $0.handlers[channel]?.map(\.handler) ?? [] }
    }
}
