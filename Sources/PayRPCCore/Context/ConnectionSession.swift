import Logging
import PayRPCJSON

/// What a service may keep about one client connection, and how it reaches that connection
/// later: per-connection state (a Tatra flow), server push (a PBBA pop-up expiring), and the
/// connection's profile.
///
/// Safe to use from any thread; notifications are encoded where they are sent and written on
/// the loop thread. Once the connection is closed, sends are dropped and ``isOpen`` is false.
public final class ConnectionSession: @unchecked Sendable {
    /// Unique within the process.
    public let id: UInt64
    /// How the client is connected.
    public let transport: TransportKind
    /// The loop that owns the connection: services schedule timers on it.
    public let loop: any EventLoop

    private let lock = Mutex()
    private var storage: [String: any Sendable] = [:]
    private var closeHandlers: [@Sendable () -> Void] = []
    private var open = true
    private var currentProfile = "default"
    private let deliver: @Sendable ([UInt8]) -> Void
    /// Set by the engine (loop thread): cancels the running request with that canonical id.
    var cancelHandler: (([UInt8]) -> Bool)?
    /// Set by the engine (loop thread): marks the connection as authenticated.
    var authenticate: (() -> Void)?
    private let notificationCheck: @Sendable (String, [UInt8]) -> RPCError?

    init(id: UInt64, transport: TransportKind, loop: any EventLoop,
         deliver: @escaping @Sendable ([UInt8]) -> Void,
         notificationCheck: @escaping @Sendable (String, [UInt8]) -> RPCError?) {
        self.id = id
        self.transport = transport
        self.loop = loop
        self.deliver = deliver
        self.notificationCheck = notificationCheck
    }

    /// The profile whose state this connection uses: the one named in `rpc.hello`, else `default`.
    public var profile: String {
        get { lock.withLock { currentProfile } }
        set { lock.withLock { currentProfile = newValue } }
    }

    /// Whether the connection is still open.
    public var isOpen: Bool { lock.withLock { open } }

    /// Sends a notification to this connection. Returns false when the connection is gone (or
    /// the payload broke its schema under `--validate-results`; that is logged by the engine).
    @discardableResult
    public func notify<N: RPCNotification>(_ notification: N.Type, _ payload: N.Payload) -> Bool {
        guard isOpen else { return false }
        var params = JSONWriter(capacity: 128)
        payload.encode(to: &params)
        if notificationCheck(N.name, params.bytes) != nil { return false }
        var writer = JSONWriter(capacity: params.bytes.count + 64)
        writer.raw("{\"jsonrpc\":\"2.0\",\"method\":")
        writer.string(N.name)
        writer.raw(",\"params\":")
        writer.raw(params.bytes)
        writer.raw("}\n")
        deliver(writer.bytes)
        return true
    }

    /// A value kept for this connection under `key` (per-connection state of a service).
    public func value<T: Sendable>(forKey key: String, as type: T.Type = T.self) -> T? {
        lock.withLock { storage[key] as? T }
    }

    /// Keeps `value` for this connection under `key`; nil removes it.
    public func setValue<T: Sendable>(_ value: T?, forKey key: String) {
        lock.withLock { storage[key] = value }
    }

    /// Atomically reads and changes the value under `key`.
    public func withValue<T: Sendable, R>(forKey key: String, default defaultValue: @autoclosure () -> T,
                                          _ body: (inout T) throws -> R) rethrows -> R {
        try lock.withLock {
            var value = (storage[key] as? T) ?? defaultValue()
            defer { storage[key] = value }
            return try body(&value)
        }
    }

    /// Runs `handler` when the connection closes (at once if it is closed already).
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = lock.withLock { () -> Bool in
            if !open { return true }
            closeHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    func markClosed() {
        let handlers = lock.withLock { () -> [@Sendable () -> Void] in
            open = false
            storage.removeAll()
            defer { closeHandlers.removeAll() }
            return closeHandlers
        }
        for handler in handlers { handler() }
    }
}
