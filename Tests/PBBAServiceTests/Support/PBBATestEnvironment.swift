import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCStore
import PayRPCTestSupport
import Testing
@testable import PBBAService
import PayRPCSQLite
import PayRPCSecrets

/// A PBBA service on the shared ``ServiceFixture`` (a real SQLite store in a fresh temporary
/// directory, served by the real engine through the in-memory harness, run as the gateway runs it).
final class PBBATestEnvironment: @unchecked Sendable {
    private let fixture: ServiceFixture<PBBAService>

    var directory: URL { fixture.directory }
    var store: SQLiteStateStore { fixture.store }
    var service: PBBAService { fixture.service }
    var harness: EngineHarness { fixture.harness }
    /// The controls the engine serves: the profiles' clocks, seeds and armed failures.
    var sandbox: SandboxControls { fixture.sandbox }

    /// - Parameters:
    ///   - directory: reuse a data directory (a restart); a new temporary one when nil.
    ///   - clock: the wall clock under the profiles' sandbox clocks (real time when nil).
    ///   - realTime: real time over stepped clocks, for wall-clock-jump tests (wins over `clock`).
    ///   - seed: the server's seed (`serve --seed`).
    ///   - configuration: engine configuration (sandbox on by default).
    init(
        directory: URL? = nil, clock: ManualClock? = nil, realTime: RealTimeClock? = nil, seed: UInt64? = nil,
        sandbox: PBBASandbox = .standard, configuration: EngineConfiguration = EngineConfiguration()
    ) async throws {
        let controls =
            if let realTime {
                SandboxControls(seed: seed, realTime: realTime)
            } else if let clock {
                SandboxControls(seed: seed, wallClock: { clock.now })
            } else {
                SandboxControls(seed: seed)
            }
        fixture = try await ServiceFixture(
            directory: directory, sandbox: controls, configuration: configuration,
            make: { context in PBBAService(store: context.store, sandbox: sandbox, secrets: context.secrets) })
    }

    /// Runs `body` with a fresh environment and removes it afterwards, also when `body` throws.
    static func run(
        directory: URL? = nil, clock: ManualClock? = nil, realTime: RealTimeClock? = nil, seed: UInt64? = nil,
        sandbox: PBBASandbox = .standard, configuration: EngineConfiguration = EngineConfiguration(),
        _ body: (PBBATestEnvironment) async throws -> Void
    ) async throws {
        let environment = try await PBBATestEnvironment(
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

    /// Stops the service and closes the store (keeping its files, for a restart).
    func closeStore() async throws {
        try await fixture.stop()
    }

    /// Stops the service, closes the store and deletes its directory.
    func tearDown() async {
        try? await fixture.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
