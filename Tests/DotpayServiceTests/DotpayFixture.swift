import Foundation
import Logging
import DotpayService
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCStore
import PayRPCTestSupport
import Testing
import PayRPCSQLite
import PayRPCSecrets

/// The dotpay service on the shared ``ServiceFixture`` (the real engine, a real SQLite store in a
/// temporary directory, the service run as the gateway runs it), sandbox controls on a fixed start
/// time, and the shipped sandbox data unless a test gives its own.
final class DotpayFixture: @unchecked Sendable {
    private let fixture: ServiceFixture<DotpayService>

    /// The fixture's start: 2026-11-24T12:00:00Z (cards expiring 2026-10 are expired, 2026-11 not).
    static let start = Date(timeIntervalSince1970: 1_795_521_600)

    /// - Parameters:
    ///   - seed: the sandbox's seed.
    ///   - sandboxFile: a sandbox data file instead of the shipped one (`--sandbox-data dotpay=FILE`).
    init(seed: UInt64? = nil, sandboxFile: URL? = nil) async throws {
        var settings = ServiceSettings()
        settings.sandboxData = sandboxFile
        settings.webAPITimeout = 30  // no test hangs the shop; a loaded machine must not time a slow answer out
        settings.retryBackoff = [.milliseconds(10), .milliseconds(20), .milliseconds(40)]
        fixture = try await ServiceFixture(
            sandbox: SandboxControls(seed: seed, wallClock: { DotpayFixture.start }), settings: settings)
    }

    var directory: URL { fixture.directory }
    var store: SQLiteStateStore { fixture.store }
    var sandbox: SandboxControls { fixture.sandbox }
    var harness: EngineHarness { fixture.harness }
    /// The service the harness serves (after a restart, the new one).
    var service: DotpayService { fixture.service }

    /// A new connection.
    func connect() async throws -> TestConnection { fixture.connect() }

    /// What a restart of `payrpc serve` does: the service stopped, the store and the service again,
    /// with no connection until the test makes one; then waits until the resend at start-up has
    /// tried every notification left waiting.
    /// - Returns: whether it ended within a minute (a guard against a hang, not a timing assertion).
    func restartAndResend() async throws -> Bool { try await fixture.restart() }
}

/// The document's example payment: 100.00 PLN to merchant 10000.
func paymentInfo(_ amount: String = "100.00", currency: String = "PLN", control: String? = nil, urlc: String? = nil) -> JSONValue
{
    var members: [JSONValue.Member] = [
        .init("merchantID", "10000"), .init("amount", .string(amount)), .init("textDescription", "Some description"),
        .init("currency", .string(currency)),
        .init("senderInformation", ["firstname": "Jan", "surname": "Kowalski", "email": "jan.kowalski@test.pl"]),
    ]
    if let control { members.append(.init("control", .string(control))) }
    if let urlc { members.append(.init("urlc", .string(urlc))) }
    return .object(members)
}

extension TestConnection {
    /// `dotpay.getChannelList` then `dotpay.pay` through `channel`, with `extra` params of `pay`.
    func pay(_ info: JSONValue, channel: Int = 73, _ extra: [JSONValue.Member] = []) async throws -> JSONValue {
        let details = try #require(try await call("dotpay.getChannelList", ["paymentInfo": info])["paymentDetails"])
        return try await call(
            "dotpay.pay", .object([.init("paymentDetails", details), .init("channelId", .int(channel))] + extra))
    }

    /// The error of `dotpay.pay` through `channel` with `extra` params.
    func payError(_ info: JSONValue, channel: Int = 73, _ extra: [JSONValue.Member] = []) async throws -> RPCError? {
        let details = try #require(try await call("dotpay.getChannelList", ["paymentInfo": info])["paymentDetails"])
        return await error("dotpay.pay", .object([.init("paymentDetails", details), .init("channelId", .int(channel))] + extra))
    }
}

/// A card to register.
func cardInfo(_ number: String = "4111111111111111") -> JSONValue {
    ["cardInfo": ["cardNumber": .string(number), "expirationMonth": 12, "expirationYear": 2030, "cvv": "123"]]
}

extension JSONValue {
    /// The element at `index` of an array (nil for anything else, or past its end).
    subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}
