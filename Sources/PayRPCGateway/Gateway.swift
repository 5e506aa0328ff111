import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCStore
import PayRPCTransport
import PayRPCSecrets
import PayRPCSQLite
import PayRPCPostgres

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
    let logger: Logger

    /// Opens the store, builds the router with every service and prepares the listeners.
    /// - Throws: a store error, a router build error (a name clash), or a transport error
    ///   (an address in use, a live Unix socket).
    public init(configuration: GatewayConfiguration, logger: Logger) throws {
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
        let environment = ServiceEnvironment(
            sandbox: sandbox, connections: ConnectionDirectory(acrossGateways: configuration.sharedStore != nil))
        let router = try Self.makeRouter(
            stores: .init(services: SandboxedStore(store: store, sandbox: sandbox), administration: store),
            secrets: secrets, configuration: configuration, state: state, environment: environment, logger: logger,
            serving: true)
        self.router = router
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

    /// The router of a gateway: built-ins plus every service.
    /// - Parameter serving: false when the router only describes the methods (`payrpc schemas`):
    ///   the services then start no work of their own.
    public static func makeRouter(
        stores: Stores, secrets: SecretHasher,
        configuration: GatewayConfiguration, state: ServerState,
        environment: ServiceEnvironment = ServiceEnvironment(), logger: Logger,
        serving: Bool
    ) throws -> Router {
        var builder = RouterBuilder()
        BuiltinService(state: state, configuration: configuration.engine).register(on: &builder)
        let context = ServiceCatalog.Context(
            stores: stores, secrets: secrets, sandbox: environment.sandbox,
            connections: environment.connections, configuration: configuration,
            logger: logger, serving: serving)
        let reference = RouterReference()
        SandboxControlService(router: reference).register(on: &builder)
        for service in try ServiceCatalog.services(context) { service.register(on: &builder) }
        let router = try builder.build(validateResults: configuration.engine.validateResults)
        reference.set(router)
        return router
    }

    /// The stores a router's services are given: what services use (their transactions, which
    /// save the sandbox's changes too) and what the gateway's own methods administer.
    public struct Stores: Sendable {
        /// What services read and write through.
        public var services: any StateStore
        /// What `sandbox.reset` resets.
        public var administration: any StoreAdministration

        /// The two stores.
        public init(services: any StateStore, administration: any StoreAdministration) {
            self.services = services
            self.administration = administration
        }
    }

    /// The addresses actually bound (a port 0 becomes the real port).
    public var boundAddresses: [String] { server.boundAddresses }

    /// Serves until shutdown (a signal, EOF on stdio, or ``shutdown()``) has drained.
    public func run() throws {
        for address in server.boundAddresses {
            logger.notice("listening on \(address)", metadata: ["address": .string(address)])
        }
        let started = ContinuousClock.now
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

    /// `seconds` (not negative) with one decimal, rounded, as `String(format: "%.1f")` writes it
    /// but without the C variadic call: its `CVarArg` casts' conformance lookups were 1.3M
    /// instructions of every run of a SQLite gateway.
    static func tenths(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded(.toNearestOrEven))
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// Starts draining from any thread.
    public func shutdown() { server.shutdown() }
}
