import Foundation
import Logging
import DotpayService
import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit
import PayRPCStore
import PayRPCTestSupport

/// The dotpay service on the real engine (in-memory connections) with a real SQLite store in a
/// temporary directory, sandbox controls on a fixed start time, and the shipped sandbox data.
final class DotpayFixture: @unchecked Sendable {
    let directory: URL
    let store: SQLiteStateStore
    let sandbox: SandboxControls
    let harness: EngineHarness

    /// The fixture's start: 2026-11-24T12:00:00Z (cards expiring 2026-10 are expired, 2026-11 not).
    static let start = Date(timeIntervalSince1970: 1_795_521_600)

    init(seed: UInt64? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("dotpay-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var logger = Logger(label: "dotpay.tests.store")
        logger.logLevel = .critical
        store = try SQLiteStateStore(directory: directory, logger: logger)
        sandbox = SandboxControls(seed: seed, wallClock: { DotpayFixture.start })
        var configuration = EngineConfiguration()
        configuration.sandbox = true
        let service = DotpayService(store: store, sandbox: try SandboxData.load(DotpaySandboxData.self, from: nil), secrets: store.secrets)
        harness = try EngineHarness(services: [service], configuration: configuration, sandbox: sandbox)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A new connection.
    func connect() async throws -> TestConnection { harness.connect(keepingAlive: self) }
}

/// The document's example payment: 100.00 PLN to merchant 10000.
func paymentInfo(_ amount: String = "100.00", currency: String = "PLN", control: String? = nil) -> JSONValue {
    var members: [JSONValue.Member] = [
        .init("merchantID", "10000"), .init("amount", .string(amount)), .init("textDescription", "Some description"),
        .init("currency", .string(currency)),
        .init("senderInformation", ["firstname": "Jan", "surname": "Kowalski", "email": "jan.kowalski@test.pl"]),
    ]
    if let control { members.append(.init("control", .string(control))) }
    return .object(members)
}

/// A card to register.
func cardInfo(_ number: String = "4111111111111111") -> JSONValue {
    ["cardInfo": ["cardNumber": .string(number), "expirationMonth": 12, "expirationYear": 2030, "cvv": "123"]]
}
