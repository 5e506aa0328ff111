import Foundation
import Logging
import NorthstarService
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCStore
import PayRPCTestSupport
import PayRPCSQLite
import PayRPCSecrets

/// The northstar service on the shared ``ServiceFixture`` (the real engine, a real SQLite store in
/// a temporary directory), sandbox controls on a fixed start time, and the shipped sandbox data.
final class NorthstarFixture: @unchecked Sendable {
    private let fixture: ServiceFixture<NorthstarService>

    /// The fixture's start: 2026-11-24T12:00:00Z (cards expiring 2026-10 are expired, 2026-11 not).
    static let start = Date(timeIntervalSince1970: 1_795_521_600)

    /// The Orders v2 test server, when the fixture runs on the HTTP backend.
    let orders: OrdersBackend?

    var directory: URL { fixture.directory }
    var store: SQLiteStateStore { fixture.store }
    var sandbox: SandboxControls { fixture.sandbox }
    var harness: EngineHarness { fixture.harness }

    /// - Parameter requestTimeout: how long one request to the test server may take. Long by
    ///   default: the server checks every request against PayPal's OpenAPI documents in Python,
    ///   and with six calls at once on a loaded two-core machine a 2 s limit failed a call that
    ///   was merely slow (-33311). Tests of a hanging server pass a short one.
    init(seed: UInt64? = nil, http: Bool = false, requestTimeout: TimeInterval = 30) async throws {
        orders = http ? try await OrdersBackend() : nil
        var settings = ServiceSettings()
        settings.webAPITimeout = requestTimeout
        fixture = try await ServiceFixture(
            sandbox: SandboxControls(seed: seed, wallClock: { NorthstarFixture.start }), settings: settings)
    }

    /// Another gateway on the same store (its own service and engine, nothing in memory shared
    /// with the first), as a second instance on one PostgreSQL database is.
    func secondGateway() throws -> EngineHarness {
        var settings = ServiceSettings()
        settings.webAPITimeout = 30
        let service = try NorthstarService(
            context: ServiceContext(store: store, secrets: store.secrets, sandbox: sandbox, settings: settings))
        return try EngineHarness(
            services: [service], configuration: ServiceFixture<NorthstarService>.sandboxMode, idempotency: store,
            sandbox: sandbox)
    }

    /// Arms the next call of `method` to fail with the declared error `name`, as `sandbox.failNext`
    /// does (a gateway method, not served by this harness).
    func failNext(_ method: String, _ name: String) throws {
        let (canonical, error) = try harness.engine.router.injectedError(for: FailureRequest(method: method, errorName: name))
        sandbox.arm(profile: "default", method: canonical, failure: InjectedFailure(error: error), count: 1)
    }

    /// What the HTTP backend sent that breaks PayPal's published OpenAPI documents, as the test
    /// server judged it (nothing on the sandbox).
    func violations() async throws -> String {
        guard let orders else { return "" }
        let found = try await orders.violations()
        return found.isEmpty ? "" : "\(found)"
    }

    /// Moves the authorizations past their validity: the sandbox's clock 29 days on, or the test
    /// server's authorizations expired.
    func expireAuthorizations() async throws {
        if let orders {
            try await orders.control(["expireAuthorizations": true])
        } else {
            try sandbox.advance(profile: "default", by: 29 * 86400)
        }
    }

    /// A new connection, configured (`northstar.configure`) unless told otherwise.
    func connect(configured: Bool = true) async throws -> TestConnection {
        let client = harness.connect(keepingAlive: self)
        if configured {
            if let orders {
                _ = try await client.call(
                    "northstar.configure",
                    [
                        "clientID": "test-client", "environment": .string(orders.baseURL), "clientSecret": "test-secret",
                    ])
            } else {
                _ = try await client.call("northstar.configure", ["clientID": "test-client"])
            }
        }
        return client
    }
}

/// The document's example card.
let visa: JSONValue = ["number": "4032036247327321", "expiry": "2030-11"]

/// A card of `number` valid through 2030-11.
func card(_ number: String, expiry: String = "2030-11", securityCode: String? = nil) -> JSONValue {
    var members: [JSONValue.Member] = [.init("number", .string(number)), .init("expiry", .string(expiry))]
    if let securityCode { members.append(.init("securityCode", .string(securityCode))) }
    return .object(members)
}

/// An order request of one unit of `value` `currency`.
func orderRequest(_ value: String, _ currency: String = "USD", breakdown: JSONValue? = nil) -> JSONValue {
    var amount: [JSONValue.Member] = [.init("currencyCode", .string(currency)), .init("value", .string(value))]
    if let breakdown { amount.append(.init("breakdown", breakdown)) }
    return ["purchaseUnitList": [["amount": .object(amount)]]]
}

extension JSONValue {
    /// The element at `index` of an array; nil for anything else.
    subscript(index: Int) -> JSONValue? {
        guard case .array(let values) = self, values.indices.contains(index) else { return nil }
        return values[index]
    }
}
