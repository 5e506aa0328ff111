import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCStore
import PayRPCTestSupport
import Testing
@testable import PBBAService
import PayRPCSQLite
import PayRPCSecrets

/// A PBBA service on a real SQLite store in a fresh temporary directory, served by the real
/// engine through the in-memory harness.
final class PBBATestEnvironment: @unchecked Sendable {
    let directory: URL
    let store: SQLiteStateStore
    let service: PBBAService
    let harness: EngineHarness
    /// The controls the engine serves: the profiles' clocks, seeds and armed failures.
    let sandbox: SandboxControls

    /// - Parameters:
    ///   - directory: reuse a data directory (a restart); a new temporary one when nil.
    ///   - clock: the wall clock under the profiles' sandbox clocks (real time when nil).
    ///   - realTime: real time over stepped clocks, for wall-clock-jump tests (wins over `clock`).
    ///   - seed: the server's seed (`serve --seed`).
    ///   - configuration: engine configuration (sandbox on by default).
    init(
        directory: URL? = nil, clock: ManualClock? = nil, realTime: RealTimeClock? = nil, seed: UInt64? = nil,
        sandbox: PBBASandbox = .standard, configuration: EngineConfiguration = EngineConfiguration()
    ) throws {
        let directory =
            directory
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("pbba-tests-\(UUID().uuidString)", isDirectory: true)
        var logger = Logger(label: "pbba.test")
        logger.logLevel = .critical
        self.directory = directory
        self.store = try SQLiteStateStore(directory: directory, logger: logger)
        self.service = PBBAService(store: store, sandbox: sandbox, secrets: store.secrets)
        if let realTime {
            self.sandbox = SandboxControls(seed: seed, realTime: realTime)
        } else if let clock {
            self.sandbox = SandboxControls(seed: seed, wallClock: { clock.now })
        } else {
            self.sandbox = SandboxControls(seed: seed)
        }
        self.harness = try EngineHarness(
            services: [service], configuration: configuration, idempotency: store,
            sandbox: self.sandbox)
    }

    /// Runs `body` with a fresh environment and removes it afterwards, also when `body` throws.
    static func run(
        directory: URL? = nil, clock: ManualClock? = nil, realTime: RealTimeClock? = nil, seed: UInt64? = nil,
        sandbox: PBBASandbox = .standard, configuration: EngineConfiguration = EngineConfiguration(),
        _ body: (PBBATestEnvironment) async throws -> Void
    ) async throws {
        let environment = try PBBATestEnvironment(
            directory: directory, clock: clock, realTime: realTime, seed: seed,
            sandbox: sandbox, configuration: configuration)
        do {
            try await body(environment)
        } catch {
            await environment.tearDown()
            throw error
        }
        await environment.tearDown()
    }

    /// Closes the store (keeping its files, for a restart).
    func closeStore() async throws {
        try await store.close()
    }

    /// Closes the store and deletes its directory.
    func tearDown() async {
        try? await store.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
