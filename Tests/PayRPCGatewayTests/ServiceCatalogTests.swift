import Foundation
import Logging
import PayRPCCore
import PayRPCGateway
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCStore
import PayRPCSQLite
import Testing

/// The catalog of services: `payrpc serve` and `payrpc schemas` build the same list from it; a
/// sixth service is its own folder plus the catalog it is given; two services whose codes overlap
/// are refused; the gateway runs every service's background work and ends it.
@Suite struct ServiceCatalogTests {
    static func quiet() -> Logger {
        var logger = Logger(label: "gateway.tests")
        logger.logLevel = .critical
        return logger
    }

    static func configuration() throws -> GatewayConfiguration {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = GatewayConfiguration(dataDirectory: directory)
        configuration.engine.sandbox = true
        return configuration
    }

    @Test("serve and schemas build the same methods from the one catalog")
    func serveAndSchemasServeTheSameMethods() throws {
        let configuration = try Self.configuration()
        defer { try? FileManager.default.removeItem(at: configuration.dataDirectory) }
        let gateway = try Gateway(configuration: configuration, logger: Self.quiet())
        let described = try SchemaExport.describingRouter(configuration: configuration, logger: Self.quiet())
        #expect(gateway.router.methods.map(\.name) == described.methods.map(\.name))
        #expect(gateway.services.services.map { type(of: $0).name } == ServiceCatalog.standard.map { $0.name })
        #expect(gateway.router.methodCount == described.methodCount && gateway.router.methodCount > 50)
    }

    @Test("a sixth service from its own folder: served, run, ended")
    func aSixthServiceIsItsFolderAndTheCatalog() async throws {
        let configuration = try Self.configuration()
        defer { try? FileManager.default.removeItem(at: configuration.dataDirectory) }
        let gateway = try Gateway(
            configuration: configuration, logger: Self.quiet(), catalog: ServiceCatalog.standard + [EchoService.self])
        #expect(gateway.router.method(named: "echo.ping") != nil)
        #expect(gateway.router.method(named: "dotpay.pay") != nil)
        let echo = try #require(gateway.services.services.last as? EchoService)
        // Built, not run: its subscription is not taken yet.
        try await gateway.store.transaction("test") { try $0.publish("before", on: EchoService.channel) }
        #expect(echo.heard.value == 0 && !echo.readiness.isReady)
        gateway.services.start()
        await gateway.services.ready()
        try await gateway.store.transaction("test") { try $0.publish("while", on: EchoService.channel) }
        #expect(echo.heard.value == 1)
        await gateway.services.stop()
        #expect(echo.heard.hasStopped)
        // Stopped: the subscription is cancelled.
        try await gateway.store.transaction("test") { try $0.publish("after", on: EchoService.channel) }
        #expect(echo.heard.value == 1)
        try await gateway.store.close()
    }

    @Test("bad input first: a service whose codes overlap another's is refused when the router is built")
    func overlappingCodeRangesAreRefused() throws {
        let configuration = try Self.configuration()
        defer { try? FileManager.default.removeItem(at: configuration.dataDirectory) }
        let error = #expect(throws: ServiceCatalogError.self) {
            _ = try Gateway(
                configuration: configuration, logger: Self.quiet(),
                catalog: ServiceCatalog.standard + [OverlappingService.self])
        }
        guard case .overlappingCodes(let first, let second)? = error else {
            Issue.record("not an overlap: \(String(describing: error))")
            return
        }
        #expect(first.service == "dotpay" && second.service == "overlap")
        #expect("\(error!)".contains("overlap"))
        // The router's own check, for services built elsewhere.
        let store = try SQLiteStateStore(
            directory: configuration.dataDirectory.appendingPathComponent("second"), logger: Self.quiet())
        let context = ServiceContext(store: store, secrets: store.secrets)
        #expect(throws: ServiceCatalogError.self) {
            _ = try Gateway.makeRouter(
                services: [try EchoService(context: context), try EchoService(context: context)], administration: store,
                sandbox: SandboxControls(), configuration: EngineConfiguration(), state: ServerState())
        }
    }

    @Test("bad input first: sandbox data for a service that takes none names those that do")
    func sandboxDataForAServiceWithoutAny() throws {
        var configuration = try Self.configuration()
        defer { try? FileManager.default.removeItem(at: configuration.dataDirectory) }
        configuration.sandboxData["echo"] = URL(fileURLWithPath: "/tmp/echo.json")
        let error = #expect(throws: SandboxDataError.self) {
            _ = try Gateway(
                configuration: configuration, logger: Self.quiet(), catalog: ServiceCatalog.standard + [EchoService.self])
        }
        #expect(error?.message.contains("no service named echo takes sandbox data") == true)
        #expect(error?.message.contains("tatra, pbba, northstar, dotpay") == true)
    }
}
