import PayRPCCore
import PayRPCJSON
import PayRPCStore

/// A service's callbacks to every connection of a profile, on every gateway of the store: a
/// callback is delivered at once to this gateway's connections of the profile (waiting for the
/// first one when there is none, ``ConnectionDirectory/broadcast(name:params:profile:)``), and
/// published in the transaction that records its cause, so that each other gateway sharing the
/// store sends it to its own open connections of the profile, once each (the store's events:
/// an outbox row and `NOTIFY` on PostgreSQL; on the embedded store only this process hears them,
/// and it has delivered them already). When gateways share the store
/// (``ConnectionDirectory/acrossGateways``), a callback for a profile with no connection is held
/// in the store for its first connection on any gateway (``HeldPushes``); on one gateway, in its
/// directory.
public final class ProfileAudience: Sendable {
    /// This gateway's connections.
    public let connections: ConnectionDirectory
    /// The store's event channel of the service's callbacks.
    let channel: String
    /// This gateway's mark on what it publishes (its own events come back to it, and are passed over).
    let origin: String
    /// The callbacks held in the store (gateways share it, and the audience is every connection of
    /// a profile); nil: held by the directory, or not at all.
    let held: HeldPushes?
    private let store: any StateStore
    private let only: (@Sendable (ConnectionSession) -> Bool)?

    /// The audience of a service whose callbacks travel on `channel` of `store`; it hears the
    /// other gateways' callbacks while ``listen()``'s subscription lasts (the service's `run()`).
    /// With `only`, a callback another gateway caused goes to the profile's connections here that
    /// `only` accepts (the observers of something).
    public init(
        store: any StateStore, connections: ConnectionDirectory, channel: String,
        only: (@Sendable (ConnectionSession) -> Bool)? = nil
    ) {
        let origin = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        self.connections = connections
        self.channel = channel
        self.origin = origin
        let held = only == nil && connections.acrossGateways ? HeldPushes(store: store, channel: channel, origin: origin) : nil
        self.held = held
        self.store = store
        self.only = only
        if let held { connections.onAdmit { session in held.admitted(session) } }
    }

    /// Sends the callbacks other gateways publish to this gateway's connections of their profile
    /// until the subscription is cancelled.
    public func listen() -> StoreSubscription {
        let (origin, held, connections, only) = (origin, held, connections, only)
        return store.subscribe(channel, as: JSONValue.self) { event in
            guard event["origin"]?.stringValue != origin, let profile = event["profile"]?.stringValue,
                let name = event["method"]?.stringValue, let params = event["params"]?.stringValue
            else { return }
            if let held, let key = event["held"]?.stringValue {
                held.heard(name: name, params: Array(params.utf8), key: key, profile: profile, connections: connections)
                return
            }
            for session in connections.sessions(profile: profile) where only?(session) ?? true {
                session.notify(name: name, params: Array(params.utf8))
            }
        }
    }

    /// The callback `notification` with `payload` for the connections of `profile`, to deliver
    /// here and publish in the transaction of its cause.
    public func push<N: RPCNotification>(_ notification: N.Type, _ payload: N.Payload, profile: String) -> ProfilePush {
        ProfilePush(notification, payload, profile: profile, channel: channel, origin: origin, heldKey: held?.newKey())
    }

    /// Sends the callback to this gateway's connections of its profile (the other gateways'
    /// hear it from the store when the transaction that published it commits).
    public func deliver(_ push: ProfilePush) {
        if let held, let key = push.heldKey {
            held.caused(name: push.name, params: push.params, key: key, profile: push.profile, connections: connections)
        } else {
            connections.broadcast(name: push.name, params: push.params, profile: push.profile)
        }
    }

    /// Sends the callback to this gateway's connections of its profile that `only` accepts, now
    /// (none waits for a later one).
    public func deliver(_ push: ProfilePush, only: (ConnectionSession) -> Bool) {
        for session in connections.sessions(profile: push.profile) where only(session) {
            _ = session.notify(name: push.name, params: push.params)
        }
    }

    /// Sends each callback here, in order.
    public func deliver(_ pushes: [ProfilePush]) {
        for push in pushes { deliver(push) }
    }
}
