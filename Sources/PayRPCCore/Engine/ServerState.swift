import PayRPCJSON

/// State of the whole server that built-in methods report: serving or draining, and the
/// published OpenRPC document.
public final class ServerState: @unchecked Sendable {
    private let lock = Mutex()
    private var draining = false
    private var document: [UInt8] = Array("{}".utf8)
    private var count = 0

    public init() {}

    /// Whether the server is draining (SIGTERM, EOF on stdio): `rpc.health` says NOT_SERVING.
    public var isDraining: Bool { lock.withLock { draining } }

    /// Marks the server as draining.
    public func beginDraining() { lock.withLock { draining = true } }

    /// The OpenRPC document, compact JSON bytes.
    public var discoveryDocument: [UInt8] { lock.withLock { document } }

    /// The number of methods served (canonical names).
    public var methodCount: Int { lock.withLock { count } }

    /// Publishes what the router serves; called once the router is built.
    public func publish(discoveryDocument: [UInt8], methodCount: Int) {
        lock.withLock {
            document = discoveryDocument
            count = methodCount
        }
    }
}
