import Logging
import PayRPCJSON
import PayRPCSync
import Synchronization

/// What a service may keep about one client connection, and how it reaches that connection
/// later: per-connection state (a Tatra flow), server push (a PBBA pop-up expiring), and the
/// connection's profile.
///
/// Safe to use from any thread; notifications are encoded where they are sent and written on
/// the loop thread. Once the connection is closed, sends are dropped and ``isOpen`` is false.
/// `@unchecked Sendable`: shared state is under a lock; the engine's two hooks are set and called on the loop thread only.
public final class ConnectionSession: @unchecked Sendable {
    /// Unique within the process.
    public let id: UInt64
    /// How the client is connected.
    public let transport: TransportKind
    /// The loop that owns the connection: services schedule timers on it.
    public let loop: any EventLoop

    /// What any thread may read and change, under one lock.
    @usableFromInline
    struct Shared {
        /// The per-connection objects by class, searched in order: a connection holds one per
        /// service it used, a handful, and comparing a few identities costs less than hashing one.
        @usableFromInline var objects: [(type: ObjectIdentifier, object: any AnyObject & Sendable)] = []
        var closeHandlers: [@Sendable () -> Void] = []
        var open = true
        var profile = "default"
        var client: String?
    }

    @usableFromInline let shared = Lock(Shared())
    /// Hands a notification (its name and its params' JSON) to the connection's face, which
    /// frames it: a JSON-RPC notification line, or an MCP session's queue.
    private let deliver: @Sendable (String, [UInt8]) -> Void
    /// Set by the engine (loop thread): cancels the running request with that canonical id.
    var cancelHandler: (([UInt8]) -> Bool)?
    /// Set by the engine (loop thread): marks the connection as authenticated.
    package var authenticate: (() -> Void)?
    private let notificationCheck: @Sendable (String, [UInt8]) -> RPCError?
    /// The server's list of connections, told when this one may be served (nil in unit tests).
    private let directory: ConnectionDirectory?

    init(
        id: UInt64, transport: TransportKind, loop: any EventLoop,
        deliver: @escaping @Sendable (String, [UInt8]) -> Void,
        notificationCheck: @escaping @Sendable (String, [UInt8]) -> RPCError?,
        directory: ConnectionDirectory? = nil
    ) {
        self.id = id
        self.transport = transport
        self.loop = loop
        self.deliver = deliver
        self.notificationCheck = notificationCheck
        self.directory = directory
    }

    /// Lists the connection, with its current profile, in the server's ``ConnectionDirectory``
    /// (when it opens without needing a token, and after each `rpc.hello`).
    func admit() { directory?.admit(self) }

    /// The profile whose state this connection uses: the one named in `rpc.hello`, else `default`.
    public var profile: String {
        get { shared.withLock { $0.profile } }
        set {
            shared.withLock { $0.profile = newValue }
            profileGeneration.add(1, ordering: .releasing)
        }
    }

    /// The client named in `rpc.hello` (`"checkout-app/2.1"`), for the call journal; nil until one is.
    public var client: String? {
        get { shared.withLock { $0.client } }
        set {
            shared.withLock { $0.client = newValue }
            profileGeneration.add(1, ordering: .releasing)
        }
    }

    /// ``profile`` and ``client``, read together.
    public var profileAndClient: (profile: String, client: String?) {
        shared.withLock { ($0.profile, $0.client) }
    }

    /// Counts the changes of ``profile`` (and of ``client``): the engine keeps a context made for
    /// one profile, and the call journal a chunk of one profile and client, until this moves.
    let profileGeneration = Atomic<UInt64>(0)

    /// Whether the connection is still open.
    public var isOpen: Bool { shared.withLock { $0.open } }

    /// Sends a notification to this connection. Returns false when the connection is gone (or
    /// the payload broke its schema under `--validate-results`; that is logged by the engine).
    @discardableResult
    public func notify<N: RPCNotification>(_ notification: N.Type, _ payload: N.Payload) -> Bool {
        guard isOpen else { return false }
        var params = JSONWriter(capacity: 128)
        payload.encode(to: &params)
        return notify(name: N.name, params: params.bytes)
    }

    /// Sends a notification given as its method name and its params' JSON (one encoded where
    /// it was caused, on another gateway of the same store); checked as ``notify(_:_:)`` checks.
    /// Returns false when the connection is gone or the params broke the schema.
    @discardableResult
    public func notify(name: String, params: [UInt8]) -> Bool {
        guard isOpen else { return false }
        if notificationCheck(name, params) != nil { return false }
        deliver(name, params)
        if let calls = directory?.calls {
            calls.pushed(name: name, params: params, to: self, cause: calls.inlineCall.current(on: loop))
        }
        return true
    }

    /// The object of class `T` kept for this connection, made by `make` on first use.
    ///
    /// For a service that keeps its per-connection state as one reference (and locks it itself):
    /// found by the class's identity, with no string hashing, no dynamic cast and nothing written
    /// back, so reading it on every call is cheap. Inlinable, so that it is specialized for its
    /// caller's class (generic, it was called with the class's metadata and cast in the dark).
    @inlinable
    public func object<T: AnyObject & Sendable>(_ type: T.Type, orMake make: () -> T) -> T {
        shared.withLock { shared in
            let key = ObjectIdentifier(type)
            for entry in shared.objects where entry.type == key { return unsafeDowncast(entry.object, to: T.self) }
            let made = make()
            shared.objects.append((key, made))
            return made
        }
    }

    /// Runs `handler` when the connection closes (at once if it is closed already).
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = shared.withLock { shared -> Bool in
            if !shared.open { return true }
            shared.closeHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    package func markClosed() {
        let handlers = shared.withLock { shared -> [@Sendable () -> Void] in
            shared.open = false
            shared.objects.removeAll()
            defer { shared.closeHandlers.removeAll() }
            return shared.closeHandlers
        }
        for handler in handlers { handler() }
    }
}
