import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCStore
import PayRPCTestSupport
@testable import TatraService
import PayRPCSQLite

/// The tatra service on the shared ``ServiceFixture`` (the real engine, a real SQLite store in a
/// temporary directory), a manual clock, and the sandbox data shipped with the service unless a
/// test gives its own.
final class TatraFixture: @unchecked Sendable {
    let clock = ManualClock()
    let sandbox: TatraSandboxData
    private var fixture: ServiceFixture<TatraService>!

    var directory: URL { fixture.directory }
    var store: SQLiteStateStore { fixture.store }
    var harness: EngineHarness { fixture.harness }

    init(sandbox: TatraSandboxData? = nil, sandboxMode: Bool = true) async throws {
        let data = try sandbox ?? SandboxData.load(TatraSandboxData.self, from: nil)
        self.sandbox = data
        var configuration = EngineConfiguration()
        configuration.sandbox = sandboxMode
        fixture = try await ServiceFixture(
            sandbox: SandboxControls(realTime: clock.realTime), configuration: configuration,
            make: { context in TatraService(store: context.store, sandbox: data) })
    }

    /// Arms the next call of `method` on `profile` to fail with its declared error `error`: what
    /// `sandbox.failNext` does (its JSON-RPC face is in the gateway, tested end to end).
    func failNext(_ method: String, _ error: String, profile: String = "default") throws {
        try harness.failNext(method, error, profile: profile)
    }

    /// A new connection to the server.
    func connect() -> TestConnection { fixture.connect() }

    /// Closes the store and the server and opens both again on the same directory: what a
    /// restart of `payrpc serve` does.
    func restart() async throws { try await fixture.restart() }
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
