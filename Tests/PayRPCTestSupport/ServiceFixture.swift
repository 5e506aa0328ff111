import Foundation
import Logging
import PayRPCCore
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCStore
import PayRPCSQLite
import PayRPCSecrets

/// One service on the real engine (in-memory connections) with a real SQLite store in a temporary
/// directory, run as the gateway runs it (``ServiceGroup``): what the five services' tests are
/// built on. ``restart()`` is what a restart of `payrpc serve` does; every wait is for an event
/// (the service's readiness), never a sleep.
public final class ServiceFixture<Service: GatewayService>: @unchecked Sendable {
    /// The data directory (removed when the fixture goes, if the fixture made it).
    public let directory: URL
    private let ownsDirectory: Bool
    /// The tester's controls the engine and the service share: tests move its clocks.
    public let sandbox: SandboxControls
    /// The service's section of the configuration.
    public let settings: ServiceSettings
    /// The store (after a restart, the new one).
    public private(set) var store: SQLiteStateStore
    /// The service the harness serves (after a restart, the new one).
    public private(set) var service: Service
    /// The engine serving the service.
    public private(set) var harness: EngineHarness
    private var group: ServiceGroup
    private let configuration: EngineConfiguration
    private let make: @Sendable (ServiceContext) throws -> Service

    /// Builds the service, runs it and returns once it is ready.
    /// - Parameters:
    ///   - directory: a data directory to open again (a restart by hand); a new temporary one when nil.
    ///   - sandbox: the controls (a fixed wall clock, a seed) the service is given.
    ///   - settings: the service's section of the configuration (short retry waits are the test's choice).
    ///   - configuration: the engine's (sandbox mode unless told otherwise).
    ///   - make: how the service is built from its context (a test's own sandbox data).
    public init(
        directory: URL? = nil, sandbox: SandboxControls = SandboxControls(), settings: ServiceSettings = ServiceSettings(),
        configuration: EngineConfiguration = ServiceFixture.sandboxMode,
        make: @escaping @Sendable (ServiceContext) throws -> Service = { try Service(context: $0) }
    ) async throws {
        ownsDirectory = directory == nil
        let directory =
            directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("\(Service.name)-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.sandbox = sandbox
        self.settings = settings
        self.configuration = configuration
        self.make = make
        store = try Self.openStore(directory)
        (service, harness, group) = try Self.serve(store, sandbox, settings, configuration, make)
        await ready()
    }

    deinit {
        group.cancel()
        if ownsDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    /// The engine configuration of a sandbox-mode gateway.
    public static var sandboxMode: EngineConfiguration {
        var configuration = EngineConfiguration()
        configuration.sandbox = true
        return configuration
    }

    /// A new connection.
    public func connect() -> TestConnection { harness.connect(keepingAlive: self) }

    /// Returns once the service is ready: it listens, and what was left waiting at its start has
    /// been tried. Bounded by a minute (a guard against a hang, not a timing assertion).
    /// - Returns: whether it became ready within the minute.
    @discardableResult
    public func ready() async -> Bool {
        let readiness = service.readiness
        return await EventWait.value(timeout: 60) { await readiness.wait() } != nil
    }

    /// What a restart of `payrpc serve` does: the service stopped (its work ended) and the store
    /// closed, then both again on the same directory, with no connection until the test makes
    /// one; returns once the new service is ready.
    /// - Returns: whether it became ready within a minute.
    @discardableResult
    public func restart() async throws -> Bool {
        await group.stop()
        try await store.close()
        store = try Self.openStore(directory)
        (service, harness, group) = try Self.serve(store, sandbox, settings, configuration, make)
        return await ready()
    }

    /// Stops the service (its work ended) and closes the store, as a gateway's shutdown does.
    public func stop() async throws {
        await group.stop()
        try await store.close()
    }

    private static func openStore(_ directory: URL) throws -> SQLiteStateStore {
        var logger = Logger(label: "\(Service.name).tests.store")
        logger.logLevel = .critical
        return try SQLiteStateStore(directory: directory, logger: logger)
    }

    private static func serve(
        _ store: SQLiteStateStore, _ sandbox: SandboxControls, _ settings: ServiceSettings,
        _ configuration: EngineConfiguration, _ make: (ServiceContext) throws -> Service
    ) throws -> (Service, EngineHarness, ServiceGroup) {
        var logger = Logger(label: "\(Service.name).tests")
        logger.logLevel = ProcessInfo.processInfo.environment["PAYRPC_TEST_LOG"] == nil ? .critical : .trace
        let connections = ConnectionDirectory()
        let service = try make(
            ServiceContext(
                store: store, secrets: store.secrets, sandbox: sandbox, connections: connections, settings: settings,
                logger: logger))
        let harness = try EngineHarness(
            services: [service], configuration: configuration, idempotency: store, sandbox: sandbox,
            connections: connections)
        let group = ServiceGroup([service], logger: logger)
        group.start()
        return (service, harness, group)
    }
}
