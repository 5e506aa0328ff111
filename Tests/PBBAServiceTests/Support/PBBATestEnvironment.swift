import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCStore
import PayRPCTestSupport
import Testing
@testable import PBBAService

/// A PBBA service on a real SQLite store in a fresh temporary directory, served by the real
/// engine through the in-memory harness.
final class PBBATestEnvironment: @unchecked Sendable {
    let directory: URL
    let store: SQLiteStateStore
    let service: PBBAService
    let harness: EngineHarness

    /// - Parameters:
    ///   - directory: reuse a data directory (a restart); a new temporary one when nil.
    ///   - clock: the service's clock.
    ///   - configuration: engine configuration (sandbox on by default).
    init(directory: URL? = nil, clock: TestClock? = nil, sandbox: PBBASandbox = .standard,
         configuration: EngineConfiguration = EngineConfiguration()) throws {
        let directory = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("pbba-tests-\(UUID().uuidString)", isDirectory: true)
        var logger = Logger(label: "pbba.test")
        logger.logLevel = .critical
        self.directory = directory
        self.store = try SQLiteStateStore(directory: directory, logger: logger)
        if let clock {
            self.service = PBBAService(store: store, sandbox: sandbox, now: { clock.now })
        } else {
            self.service = PBBAService(store: store, sandbox: sandbox)
        }
        self.harness = try EngineHarness(services: [service], configuration: configuration, idempotency: store)
    }

    /// Runs `body` with a fresh environment and removes it afterwards, also when `body` throws.
    static func run(directory: URL? = nil, clock: TestClock? = nil, sandbox: PBBASandbox = .standard,
                    configuration: EngineConfiguration = EngineConfiguration(),
                    _ body: (PBBATestEnvironment) async throws -> Void) async throws {
        let environment = try PBBATestEnvironment(directory: directory, clock: clock, sandbox: sandbox,
                                                  configuration: configuration)
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

/// A clock the test moves by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) {
        current = start
    }

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(by seconds: TimeInterval) {
        lock.lock()
        current = current.addingTimeInterval(seconds)
        lock.unlock()
    }
}

/// A created payment request, as the tests use it.
struct SubmittedRequest {
    let secureToken: String
    let brn: String
    let requestId: String
    let retrievalExpiryInterval: Int
}

extension TestConnection {
    /// `pbba.submitPaymentRequest` with a normal amount.
    func submit(amount: String = "10.00", reference: String = "Order 1", interval: Int? = nil) async throws -> SubmittedRequest {
        var params: [JSONValue.Member] = [.init("amount", .string(amount)), .init("currency", "GBP"),
                                          .init("reference", .string(reference))]
        if let interval { params.append(.init("retrievalExpiryInterval", .int(interval))) }
        let result = try await call("pbba.submitPaymentRequest", .object(params))
        return SubmittedRequest(secureToken: try #require(result["secureToken"]?.stringValue),
                                brn: try #require(result["brn"]?.stringValue),
                                requestId: try #require(result["requestId"]?.stringValue),
                                retrievalExpiryInterval: try #require(result["retrievalExpiryInterval"]?.intValue))
    }

    /// `pbba.showPBBAPopup` for a request.
    func showPopup(_ request: SubmittedRequest, expiryInterval: Int? = nil) async throws -> JSONValue {
        try await call("pbba.showPBBAPopup", ["secureToken": .string(request.secureToken), "brn": .string(request.brn),
                                        "expiryInterval": .int(expiryInterval ?? request.retrievalExpiryInterval)])
    }

    /// `sandbox.pbba.setBankAppsInstalled`.
    @discardableResult
    func setBankApps(_ count: Int) async throws -> JSONValue {
        try await call("sandbox.pbba.setBankAppsInstalled", ["count": .int(count)])
    }

    /// Expects the call to fail with `code` and, for domain errors, `data.type` == `type`.
    func expectError(_ code: Int, type: String? = nil, _ method: String, _ params: JSONValue? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) async -> RPCError? {
        do {
            let result = try await call(method, params)
            Issue.record("\(method) answered \(result.jsonText) instead of error \(code)", sourceLocation: sourceLocation)
            return nil
        } catch let error as RPCError {
            #expect(error.code.rawValue == code, "\(method): \(error)", sourceLocation: sourceLocation)
            if let type {
                #expect(error.data?["type"]?.stringValue == type, sourceLocation: sourceLocation)
            }
            return error
        } catch {
            Issue.record("\(method) failed with \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}

extension JSONValue {
    /// The integer, when this is an integral number.
    var intValue: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }

    /// The boolean, when this is one.
    var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The array's elements, when this is an array.
    var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
