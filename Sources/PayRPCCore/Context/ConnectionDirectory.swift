import PayRPCJSON
import PayRPCSync

/// Every connection the server may serve, with its profile, kept by the engine: how a service
/// reaches all the connections of a profile (a dashboard that only said `rpc.hello`, not just the
/// connections that called the service), and how a notification raised while a profile has no
/// connection (a delivery failing at start-up, before any client came) waits for the first one.
///
/// A connection is listed from when it may call methods (at once on stdio or without a token,
/// after `rpc.hello` with the token otherwise) until it closes; its profile is read when a
/// notification is sent, so an `rpc.hello {profile}` moves it. Safe to use from any thread.
///
/// A gateway that shares its store with others (``acrossGateways``) is one of several
/// directories of a profile's connections: what must wait for a profile's first connection on any
/// of them is kept in the store by the services' audiences (the kit's `ProfileAudience`), which
/// hear of each connection admitted here (``onAdmit(_:)``).
public final class ConnectionDirectory: Sendable {
    /// A notification waiting for a connection of its profile.
    typealias Held = @Sendable (ConnectionSession) -> Void

    private struct State {
        var sessions: [UInt64: ConnectionSession] = [:]
        var held: [String: [Held]] = [:]
    }

    private let state = Lock(State())
    private let admitted = Lock<[@Sendable (ConnectionSession) -> Void]>([])
    /// Whether other gateways share the store, and so the profiles' audience.
    public let acrossGateways: Bool
    /// The call journal every connection's calls, notifications and outgoing HTTP exchanges are
    /// recorded in (nil: `--no-call-journal`, or not in sandbox mode).
    public let calls: (any CallRecorder)?

    /// A directory of this gateway's connections, the only gateway of its store.
    public convenience init() {
        self.init(acrossGateways: false)
    }

    /// A directory of this gateway's connections; `acrossGateways`: other gateways share its store;
    /// `calls`: the call journal (nil: none).
    public init(acrossGateways: Bool, calls: (any CallRecorder)? = nil) {
        self.acrossGateways = acrossGateways
        self.calls = calls
    }

    /// Calls `handler` with each connection admitted from now on (when it may be served, and
    /// after each `rpc.hello`), after what was held here for its profile was sent to it.
    public func onAdmit(_ handler: @escaping @Sendable (ConnectionSession) -> Void) {
        admitted.withLock { $0.append(handler) }
    }

    /// Lists the connection (once), forgetting it when it closes, and hands it what was held for
    /// its profile: the engine calls this when a connection may be served and after each
    /// `rpc.hello`.
    func admit(_ session: ConnectionSession) {
        let profile = session.profile
        let (isNew, held) = state.withLock { state -> (Bool, [Held]) in
            let isNew = state.sessions.updateValue(session, forKey: session.id) == nil
            return (isNew, state.held.removeValue(forKey: profile) ?? [])
        }
        if isNew {
            session.onClose { [weak self] in _ = self?.state.withLock { $0.sessions.removeValue(forKey: session.id) } }
        }
        for send in held { send(session) }
        for handler in admitted.withLock({ $0 }) { handler(session) }
    }

    /// The open connections whose profile is `profile`.
    public func sessions(profile: String) -> [ConnectionSession] {
        state.withLock { state in Self.sessions(of: profile, in: state) }
    }

    /// Sends a notification to every open connection of `profile`; when it has none, the
    /// notification waits for the first connection of the profile, which gets it once.
    /// - Returns: how many connections it was sent to now (0: it waits).
    @discardableResult
    public func broadcast<N: RPCNotification>(_ notification: N.Type, _ payload: N.Payload, profile: String) -> Int {
        var params = JSONWriter(capacity: 128)
        payload.encode(to: &params)
        return broadcast(name: N.name, params: params.bytes, profile: profile)
    }

    /// Sends a notification given as its method name and its params' JSON as
    /// ``broadcast(_:_:profile:)`` does (waiting for the profile's first connection when it has
    /// none).
    /// - Returns: how many connections it was sent to now (0: it waits).
    @discardableResult
    public func broadcast(name: String, params: [UInt8], profile: String) -> Int {
        let sessions = state.withLock { state -> [ConnectionSession] in
            let sessions = Self.sessions(of: profile, in: state)
            if sessions.isEmpty {
                state.held[profile, default: []].append { session in _ = session.notify(name: name, params: params) }
            }
            return sessions
        }
        for session in sessions { _ = session.notify(name: name, params: params) }
        return sessions.count
    }

    /// Sends a notification to every open connection of `profile` now; nothing waits when it has
    /// none here. - Returns: how many connections it was sent to.
    @discardableResult
    public func send(name: String, params: [UInt8], profile: String) -> Int {
        let sessions = self.sessions(profile: profile)
        for session in sessions { _ = session.notify(name: name, params: params) }
        return sessions.count
    }

    private static func sessions(of profile: String, in state: State) -> [ConnectionSession] {
        state.sessions.values.filter { $0.profile == profile && $0.isOpen }.sorted { $0.id < $1.id }
    }
}
