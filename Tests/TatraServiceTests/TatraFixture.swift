import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit
import PayRPCStore
import PayRPCTestSupport
@testable import TatraService
import PayRPCSQLite

/// The tatra service on the real engine (in-memory harness) with the real SQLite store in a
/// temporary directory, a manual clock, and the sandbox data shipped with the service.
final class TatraFixture: @unchecked Sendable {
    let directory: URL
    let clock = ManualClock()
    let sandbox: TatraSandboxData
    private(set) var store: SQLiteStateStore
    private(set) var harness: EngineHarness

    private let sandboxMode: Bool

    init(sandbox: TatraSandboxData? = nil, sandboxMode: Bool = true) throws {
        self.sandboxMode = sandboxMode
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tatra-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.sandbox = try sandbox ?? SandboxData.load(TatraSandboxData.self, from: nil)
        store = try Self.openStore(in: directory)
        harness = try Self.makeHarness(store: store, sandbox: self.sandbox, clock: clock, sandboxMode: sandboxMode)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Arms the next call of `method` on `profile` to fail with its declared error `error`: what
    /// `sandbox.failNext` does (its JSON-RPC face is in the gateway, tested end to end).
    func failNext(_ method: String, _ error: String, profile: String = "default") throws {
        try harness.failNext(method, error, profile: profile)
    }

    /// A new connection to the server.
    func connect() -> TestConnection { harness.connect(keepingAlive: self) }

    /// Closes the store and the server and opens both again on the same directory: what a
    /// restart of `payrpc serve` does.
    func restart() async throws {
        try await store.close()
        store = try Self.openStore(in: directory)
        harness = try Self.makeHarness(store: store, sandbox: sandbox, clock: clock, sandboxMode: sandboxMode)
    }

    private static func makeHarness(
        store: any StateStore, sandbox: TatraSandboxData,
        clock: ManualClock, sandboxMode: Bool
    ) throws -> EngineHarness {
        var configuration = EngineConfiguration()
        configuration.sandbox = sandboxMode
        return try EngineHarness(
            services: [TatraService(store: store, sandbox: sandbox)],
            configuration: configuration, sandbox: SandboxControls(realTime: clock.realTime))
    }

    private static func openStore(in directory: URL) throws -> SQLiteStateStore {
        var logger = Logger(label: "tatra.tests.store")
        logger.logLevel = .critical
        return try SQLiteStateStore(directory: directory, logger: logger)
    }
}

/// The bench's executePayment request params (about 250 bytes on the wire).
let benchPayment: JSONValue = [
    "amount": "12.50",
    "contact": ["fullName": "Jana Nováková", "phones": ["+421900123456"]],
    "reference": "Invoice 2026-001 for services",
]

/// A payment of `amount` to Jana Nováková.
func payment(_ amount: String, phone: String = "+421900123456", reference: String? = "Lunch") -> JSONValue {
    var members: [JSONValue.Member] = [
        .init("amount", .string(amount)),
        .init("contact", ["fullName": "Jana Nováková", "phones": .array([.string(phone)])]),
    ]
    if let reference { members.append(.init("reference", .string(reference))) }
    return .object(members)
}
