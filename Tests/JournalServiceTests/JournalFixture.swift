import Foundation
import JournalService
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCStore
import PayRPCTestSupport
import PayRPCSQLite
import PayRPCSecrets

/// The journal service on the shared ``ServiceFixture`` (the real engine, a real SQLite store in a
/// temporary directory, the service run as the gateway runs it) and, when asked, the test backend
/// as a real HTTP server (else the built-in sandbox Web API, or none at all as with
/// `--no-sandbox`). Short timeouts and backoff keep failures fast.
final class JournalFixture: @unchecked Sendable {
    private let fixture: ServiceFixture<JournalService>
    let backend: JournalBackend?

    /// - Parameters:
    ///   - backend: whether the test backend runs and is the server's backend.
    ///   - sandboxWebAPI: without a backend, whether the built-in sandbox Web API takes the entries.
    ///   - timeout: how long one POST may take: long by default, since a POST to the Python
    ///     backend on a loaded two-core machine can take seconds (a timed-out try is one attempt
    ///     more than a test counts); tests of a hanging backend pass a short one.
    init(backend: Bool = true, sandboxWebAPI: Bool = true, timeout: TimeInterval = 30) async throws {
        self.backend = backend ? try await JournalBackend() : nil
        var settings = ServiceSettings()
        settings.backend = self.backend?.baseURL
        settings.sandboxWebAPI = sandboxWebAPI
        settings.webAPITimeout = timeout
        settings.retryBackoff = [.milliseconds(10), .milliseconds(20), .milliseconds(40)]
        fixture = try await ServiceFixture(sandbox: SandboxControls(seed: 5), settings: settings)
    }

    var sandbox: SandboxControls { fixture.sandbox }
    var store: SQLiteStateStore { fixture.store }
    /// The service the harness serves (after a restart, the new one).
    var service: JournalService { fixture.service }

    /// What a restart of `payrpc serve` does: the service stopped, the store and the service again,
    /// waiting entries resent, and no connection until the test makes one; then waits until the
    /// resend at start-up has tried every waiting entry.
    /// - Returns: whether it ended within a minute (a guard against a hang, not a timing assertion).
    func restartAndResend() async throws -> Bool { try await fixture.restart() }

    func connect() -> TestConnection { fixture.connect() }
}

/// The journal journeys the tests repeat.
extension TestConnection {
    /// A card payment from `journal.pay` to the saved entry (hand-off, Payment Application, callback).
    func cardPayment(_ amount: String = "10000", result: String = "approved") async throws -> JSONValue {
        let url = try await call("journal.pay", ["type": "creditCard", "amount": .string(amount)])["url"]
        let callback = try await call("sandbox.journal.completePayment", ["url": url ?? .null, "result": .string(result)])
        return try await call("journal.handleCallback", ["url": callback["callbackURL"] ?? .null])
    }
}

/// The document's two hand-off examples.
enum DocumentExamples {
    static let card = "opener://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10000&Startup_Mode=1"
    static let cardOut =
        "linkPayment://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10000&Startup_Mode=1#opener://"
    static let account =
        "opener://open?Return_Type=4&Payment_Service=060&Transaction_Type=1&Receive_Agency_Code=12345000&Receive_Agency_Name=abc_bank&Consignor_Name=special_code&Consignor_Code=123&Startup_Mode=1"
    static let accountOut =
        "linkPayment://open?Return_Type=4&Payment_Service=060&Transaction_Type=1&Receive_Agency_Code=12345000&Receive_Agency_Name=abc_bank&Consignor_Name=special_code&Consignor_Code=123&Startup_Mode=1#opener://"
}
