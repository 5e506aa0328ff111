import Foundation
import Logging
import PayRPCCalls
import PayRPCCore
import PayRPCMCP
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCStore
import PayRPCTransport
import PayRPCSecrets
import PayRPCSQLite
import PayRPCPostgres
import PayRPCSync

/// The assembled server: store, services, router, engine and transport.
public final class Gateway: Sendable {
    /// The frozen methods.
    public let router: Router
    /// The engine.
    public let engine: RPCEngine
    /// The store: the embedded SQLite store, or a PostgreSQL store shared with other instances.
    public let store: any StateStore & StoreAdministration
    /// How the store's secrets are hashed and sealed.
    public let secrets: SecretHasher
    /// The transport.
    public let server: LibUVServer
    /// The tester's controls: clocks, seeds, armed failures.
    public let sandbox: SandboxControls
    /// Every service, run beside the transport by ``run()``.
    public let services: ServiceGroup
    /// Every profile's call journal (nil: `--no-call-journal`, or not in sandbox mode).
    public let calls: CallJournal?
    /// The journal's background work while the gateway runs.
    private let callsWork = Lock<Task<Void, Never>?>(nil)
    let logger: Logger

    /// Opens the store, builds every service of `catalog` (starting none) and the router, and
    /// prepares the listeners.
    /// - Throws: a store error, a catalog or router build error (a name clash, overlapping codes),
    ///   or a transport error (an address in use, a live Unix socket).
    public init(
        configuration: GatewayConfiguration, logger: Logger, catalog: [any GatewayService.Type] = ServiceCatalog.standard
    ) throws {
        self.logger = logger
        // One real time for the sandbox clocks and the store (idempotency retention, timestamps):
        // the wall clock read now, then the monotonic clock, so a step of the system clock while
        // the server runs moves neither.
        let realTime = RealTimeClock(configuration.time)
        var storeConfiguration = configuration.store
        storeConfiguration.now = { realTime.now() }
        let (store, secrets) = try Self.openStore(configuration, storeConfiguration, logger: logger)
        self.store = store
        self.secrets = secrets
        let state = ServerState()
        // The profiles' sandbox state lives in the store; the controls cache it.
        let sandbox = SandboxControls(
            seed: configuration.seed, realTime: realTime,
            persistence: StoreSandboxPersistence(store: store), randomBytes: SecureRandom())
        sandbox.restore(try store.sandboxStatesAtStartUp(logger: logger))
        self.sandbox = sandbox
        let calls =
            configuration.engine.sandbox
            ? configuration.calls.map { settings in
                CallJournal(
                    settings: settings, sandbox: sandbox, shared: configuration.sharedStore == nil ? nil : store, logger: logger)
            } : nil
        self.calls = calls
        let connections = ConnectionDirectory(acrossGateways: configuration.sharedStore != nil, calls: calls)
        let environment = ServiceEnvironment(sandbox: sandbox, connections: connections)
        let services = try ServiceCatalog.build(
            catalog,
            parts: .init(
                store: SandboxedStore(store: store, sandbox: sandbox), secrets: secrets, sandbox: sandbox,
                connections: connections, logger: logger),
            configuration: configuration)
        self.services = ServiceGroup(services, logger: logger)
        let router = try Self.makeRouter(
            services: services, administration: store, sandbox: sandbox, configuration: configuration.engine, state: state,
            calls: calls)
        self.router = router
        calls?.attach(router)
        let builder = OpenRPCBuilder(router: router, version: configuration.engine.version)
        state.publish(methodCount: router.methodCount) { Array(builder.document().jsonText.utf8) }
        let engine = RPCEngine(
            router: router, configuration: configuration.engine,
            idempotency: store, environment: environment, logger: logger)
        self.engine = engine
        let handlerFactory: any RPCConnectionHandlerFactory =
            configuration.mcp
            ? try MCPServer(engine: engine, documents: ServiceDocuments.all) : engine
        let server = LibUVServer(configuration: configuration.transport, handlerFactory: handlerFactory, logger: logger)
        server.onShutdownStarted = { state.beginDraining() }
        self.server = server
        for endpoint in configuration.listeners {
            try server.listen(endpoint)
        }
        if configuration.stdio { try server.attachStdio() }
    }

    /// The store `configuration` names and its secrets: PostgreSQL when it names one, else the
    /// SQLite store of the data directory.
    static func openStore(_ configuration: GatewayConfiguration, _ storeConfiguration: StoreConfiguration, logger: Logger)
        throws -> (any StateStore & StoreAdministration, SecretHasher)
    {
        if let shared = configuration.sharedStore {
            let store = try PostgresStateStore(options: shared, configuration: storeConfiguration, logger: logger)
            return (store, store.secrets)
        }
        let store = try SQLiteStateStore(
            directory: configuration.dataDirectory, configuration: storeConfiguration, logger: logger)
        return (store, store.secrets)
    }

    /// The router of a gateway: the built-ins, the sandbox's methods and every service's.
    /// - Throws: ``ServiceCatalogError`` when two services share a name or codes; a router build
    ///   error when two methods share a name.
    public static func makeRouter(
        services: [any GatewayService], administration: any StoreAdministration, sandbox: SandboxControls,
        configuration: EngineConfiguration, state: ServerState, calls: CallJournal? = nil
    ) throws -> Router {
        try ServiceCatalog.check(services.map { type(of: $0) }, sandboxData: [:])
        var builder = RouterBuilder()
        BuiltinService(state: state, configuration: configuration).register(on: &builder)
        let reference = RouterReference()
        SandboxControlService(controls: sandbox, router: reference).register(on: &builder)
        SandboxAdminService(store: administration, sandbox: sandbox, calls: calls).register(on: &builder)
        CallJournalService(journal: calls, router: { reference.router }).register(on: &builder)
        for service in services { service.register(on: &builder) }
        let router = try builder.build(validateResults: configuration.validateResults)
        reference.set(router)
        return router
    }

    /// The addresses actually bound (a port 0 becomes the real port).
    public var boundAddresses: [String] { server.boundAddresses }

    /// Runs the services and serves until shutdown (a signal, EOF on stdio, or ``shutdown()``)
    /// has drained (every call read answered); then stops the services (each delivery ends at its
    /// next wait, its item as recorded) and closes the store, last.
    public func run() throws {
        if let calls { callsWork.withLock { $0 = Task { await calls.run() } } }
        services.start()
        if !services.waitStarted(atMost: .seconds(10)) {
            logger.warning("a service's work had not started after 10 s; serving anyway")
        }
        for address in server.boundAddresses {
            logger.notice("listening on \(address)", metadata: ["address": .string(address)])
        }
        let started = ContinuousClock.now
        defer { stopServicesAndStore() }
        try server.run()
        guard let statistics = (store as? SQLiteStateStore)?.statistics else { return }
        let uptime = ContinuousClock.now - started
        let seconds = max(0.001, Double(uptime.components.seconds) + Double(uptime.components.attoseconds) / 1e18)
        logger.info(
            "stopped",
            metadata: [
                "store.writes": .stringConvertible(statistics.writes), "store.commits": .stringConvertible(statistics.commits),
                "store.commitsPerSecond": .string(String(Int(Double(statistics.commits) / seconds))),
                "uptime.seconds": .string(Self.tenths(seconds)),
            ])
    }

    /// How long the services may take to end their work once the transport has drained: a
    /// delivery blocked in a request ends when the request does (``GatewayConfiguration/webAPITimeout``).
    static let servicesStopTimeout: Duration = .seconds(3)

    /// Stops the services, then closes the store (both bounded: the process exits either way).
    private func stopServicesAndStore() {
        if !services.stop(waitingAtMost: Self.servicesStopTimeout) {
            logger.warning("a service's work did not end in time: what it had not recorded waits for the next start")
        }
        if let work = callsWork.withLock({ $0 }) {
            // The journal's last flush, before the store closes.
            work.cancel()
            let ended = DispatchSemaphore(value: 0)
            Task {
                await work.value
                ended.signal()
            }
            if ended.wait(timeout: .now() + 5) == .timedOut {
                logger.warning("the call journal's last flush did not end within 5 s")
            }
        }
        let closed = DispatchSemaphore(value: 0)
        let (store, logger) = (store, logger)
        Task {
            do { try await store.close() } catch { logger.error("closing the store failed: \(error)") }
            closed.signal()
        }
        if closed.wait(timeout: .now() + 10) == .timedOut { logger.error("the store did not close within 10 s") }
    }

    /// `seconds` (not negative) with one decimal, rounded, as `String(format: "%.1f")` writes it
    /// but without the C variadic call, whose `CVarArg` casts looked conformances up at every run of
    /// a SQLite gateway (docs/benchmarks.md, "A start").
    static func tenths(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded(.toNearestOrEven))
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// Starts draining from any thread.
    public func shutdown() { server.shutdown() }
}
