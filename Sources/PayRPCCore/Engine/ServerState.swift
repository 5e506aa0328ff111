import PayRPCJSON
import PayRPCSync

/// State of the whole server that built-in methods report: serving or draining, and the
/// published OpenRPC document.
public final class ServerState: Sendable {
    private struct Published {
        var draining = false
        var document: [UInt8] = Array("{}".utf8)
        var methodCount = 0
    }

    private let published = Lock(Published())

    public init() {}

    /// Whether the server is draining (SIGTERM, EOF on stdio): `rpc.health` says NOT_SERVING.
    public var isDraining: Bool { published.withLock { $0.draining } }

    /// Marks the server as draining.
    public func beginDraining() { published.withLock { $0.draining = true } }

    /// The OpenRPC document, compact JSON bytes.
    public var discoveryDocument: [UInt8] { published.withLock { $0.document } }

    /// The number of methods served (canonical names).
    public var methodCount: Int { published.withLock { $0.methodCount } }

    /// Publishes what the router serves; called once the router is built.
    public func publish(discoveryDocument: [UInt8], methodCount: Int) {
        published.withLock {
            $0.document = discoveryDocument
            $0.methodCount = methodCount
        }
    }
}
