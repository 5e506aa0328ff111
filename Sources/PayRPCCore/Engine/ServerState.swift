import PayRPCJSON
import PayRPCSync
import Synchronization

/// State of the whole server that built-in methods report: serving or draining, and the
/// published OpenRPC document.
public final class ServerState: Sendable {
    private struct Published {
        var document = LazyValue<[UInt8]> { Array("{}".utf8) }
        var methodCount = 0
    }

    private let published = Lock(Published())
    /// Read by every `rpc.health`: an atomic load, where reading it under ``published``'s lock cost
    /// a lock and an unlock per call.
    private let draining = Atomic<Bool>(false)

    public init() {}

    /// Whether the server is draining (SIGTERM, EOF on stdio): `rpc.health` says NOT_SERVING.
    public var isDraining: Bool { draining.load(ordering: .acquiring) }

    /// Marks the server as draining.
    public func beginDraining() { draining.store(true, ordering: .releasing) }

    /// The OpenRPC document, compact JSON bytes, made on the first call that asks for it.
    public var discoveryDocument: [UInt8] { published.withLock { $0.document }.value }

    /// The number of methods served (canonical names).
    public var methodCount: Int { published.withLock { $0.methodCount } }

    /// Publishes what the router serves; called once the router is built. `discoveryDocument`
    /// runs once, on the first `rpc.discover`: building and writing the document of every method
    /// is start-up work that a run which never asks for it need not pay (docs/benchmarks.md,
    /// "Start-up").
    public func publish(methodCount: Int, discoveryDocument: @escaping @Sendable () -> [UInt8]) {
        let document = LazyValue(discoveryDocument)
        published.withLock {
            $0.document = document
            $0.methodCount = methodCount
        }
    }
}
