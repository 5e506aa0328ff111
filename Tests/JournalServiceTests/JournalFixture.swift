import Foundation
import JournalService
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCStore
import PayRPCTestSupport
import PayRPCSQLite
import PayRPCSecrets

/// The journal service on the real engine with a real SQLite store in a temporary directory and,
/// when asked, the test backend as a real HTTP server (else the built-in sandbox Web API, or none
/// at all as with `--no-sandbox`). Short timeouts and backoff keep failures fast.
final class JournalFixture: @unchecked Sendable {
    let directory: URL
    private(set) var store: SQLiteStateStore
    let sandbox = SandboxControls(seed: 5)
    private(set) var harness: EngineHarness
    /// The service the harness serves (after a restart, the new one).
    private(set) var service: JournalService
    let backend: JournalBackend?
    private let options: JournalService.Options

    /// - Parameters:
    ///   - backend: whether the test backend runs and is the server's backend.
    ///   - sandboxWebAPI: without a backend, whether the built-in sandbox Web API takes the entries.
    ///   - timeout: how long one POST may take: long by default, since a POST to the Python
    ///     backend on a loaded two-core machine can take seconds (a timed-out try is one attempt
    ///     more than a test counts); tests of a hanging backend pass a short one.
    init(backend: Bool = true, sandboxWebAPI: Bool = true, timeout: TimeInterval = 30) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.backend = backend ? try await JournalBackend() : nil
        options = JournalService.Options(
            backend: self.backend?.baseURL, sandboxWebAPI: sandboxWebAPI, requestTimeout: timeout,
            backoff: [.milliseconds(10), .milliseconds(20), .milliseconds(40)], resendAtStart: false)
        store = try Self.openStore(directory)
        (harness, service) = try Self.harness(store, sandbox, options)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// What a restart of `payrpc serve` does: the store and the service again, waiting entries
    /// resent, and no connection until the test makes one.
    func restart() async throws {
        try await store.close()
        store = try Self.openStore(directory)
        var options = options
        options.resendAtStart = true
        (harness, service) = try Self.harness(store, sandbox, options)
    }

    /// ``restart()``, then waits until the resend at start-up has tried every waiting entry.
    /// - Returns: whether it ended within a minute (a guard against a hang, not a timing assertion).
    func restartAndResend() async throws -> Bool {
        try await restart()
        guard let startup = service.startupDelivery else { return false }
        return await EventWait.value(timeout: 60) { await startup.value } != nil
    }

    func connect() -> TestConnection { harness.connect(keepingAlive: self) }

    private static func openStore(_ directory: URL) throws -> SQLiteStateStore {
        var logger = Logger(label: "journal.tests.store")
        logger.logLevel = .critical
        return try SQLiteStateStore(directory: directory, logger: logger)
    }

    private static func harness(
        _ store: SQLiteStateStore, _ sandbox: SandboxControls,
        _ options: JournalService.Options
    ) throws -> (EngineHarness, JournalService) {
        var configuration = EngineConfiguration()
        configuration.sandbox = true
        let connections = ConnectionDirectory()
        let service = JournalService(
            store: store, secrets: store.secrets, environment: ServiceEnvironment(sandbox: sandbox, connections: connections),
            options: options)
        return (
            try EngineHarness(services: [service], configuration: configuration, sandbox: sandbox, connections: connections),
            service
        )
    }
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
