import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import PayRPCStore
import PayRPCSync

/// `echo.ping`: answers its service's ping count, which the service's background work counts from
/// the store channel ``EchoService/channel`` while it runs.
enum EchoPing: RPCMethod, RPCMethodDocumented {
    static let name = "echo.ping"
    static let summary = "Answers how many pings the echo service heard."
    static let documentation = ""
    typealias Params = NoParams
    typealias Result = Int
}

/// A throw-away sixth service: what a new service is, everything in its own folder (the test adds
/// it to the catalog it gives the gateway, and nothing else). Its background work is a store
/// subscription that counts what is published on ``channel`` while ``run()`` runs.
struct EchoService: GatewayService {
    static let name = "echo"
    static let codeRange = ServiceCodeRange(service: name, first: -33900)
    static let channel = "echo.pings"

    let store: any StateStore
    let heard = Counter()
    let readiness = ServiceReadiness()

    init(context: ServiceContext) throws { store = context.store }

    func register(on router: inout RouterBuilder) {
        let heard = heard
        router.registerInline(EchoPing.self) { _, _ in heard.value }
    }

    func run() async throws {
        let heard = heard
        try await BackgroundWork.run(readiness: readiness) { work in
            work.hold(store.subscribe(Self.channel) { _ in heard.add() })
            work.onStop { heard.stopped() }
        }
    }

    /// What the service heard, and whether its work ended.
    final class Counter: Sendable {
        private let state = Lock((count: 0, stopped: false))
        var value: Int { state.withLock { $0.count } }
        var hasStopped: Bool { state.withLock { $0.stopped } }
        func add() { state.withLock { $0.count += 1 } }
        func stopped() { state.withLock { $0.stopped = true } }
    }
}

/// A service whose codes overlap Dotpay's (-33400…-33499): the gateway refuses it.
struct OverlappingService: GatewayService {
    static let name = "overlap"
    static let codeRange = ServiceCodeRange(service: name, first: -33450)

    init(context: ServiceContext) throws {}
    func register(on router: inout RouterBuilder) {}
}
