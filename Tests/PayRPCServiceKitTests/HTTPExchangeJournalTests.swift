import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit
import PayRPCSync
import PayRPCTestSupport
import Testing

/// What the HTTP client hands the call journal, against a real local server: each try under the
/// task's scope, masked before it leaves the client (the URL's credentials, the `Authorization`
/// header, the body's declared secrets), its try number, and nothing outside a scope.
@Suite struct HTTPExchangeJournalTests {
    let server: PythonBackend

    init() async throws {
        let script = try #require(Bundle.module.url(forResource: "http_echo", withExtension: "py"))
        server = try await PythonBackend(script: script.path)
    }

    /// Keeps what it is handed (the journal's reading is PayRPCCalls' and tested there).
    final class Exchanges: CallRecorder, @unchecked Sendable {
        let recorded = Lock<[HTTPExchangeRecord]>([])
        let demand = CallDemand()
        let inlineCall = InlineCall()
        var bodyLimit: Int { 64 }
        func take(_ chunk: CallChunk) {}
        func pushed(name: String, params: [UInt8], to connection: ConnectionSession, cause: String?) {}
        func exchanged(_ exchange: HTTPExchangeRecord) { recorded.withLock { $0.append(exchange) } }
        func attach(_ log: CallLog) {}
        func detach(_ log: CallLog) {}
    }

    @Test func anExchangeIsRecordedUnderItsScopeMaskedAndCut() async throws {
        let exchanges = Exchanges()
        let client = HTTPClient(timeout: 10, recorder: exchanges)
        let hello = try JSONTape(string: #"{"client":"shop/1","token":"tok-SECRET-42"}"#).withRoot { try HelloParams(json: $0) }
        var request = HTTPRequest(
            "POST", URL(string: "http://shop:pa55word@127.0.0.1:\(server.port)/echo")!, json: hello,
            headers: [("Authorization", "Bearer tok-SECRET-42")])
        request.attempt = 2
        // Outside any scope: not recorded (no profile to record it under).
        _ = try? await client.send(request)
        #expect(exchanges.recorded.withLock { $0.isEmpty })

        let scope = CallScope(profile: "alice", call: "7.3", work: "delivery")
        let answer = try await CallScope.$current.withValue(scope) { try await client.send(request) }
        #expect(answer.status == 200)
        let exchange = try #require(exchanges.recorded.withLock { $0.first })
        #expect(exchange.scope == scope)
        #expect(exchange.method == "POST")
        #expect(exchange.url == "http://127.0.0.1:\(server.port)/echo")
        #expect(exchange.status == 200)
        #expect(exchange.attempt == 2)
        #expect(exchange.requestHeaders.first { $0.name == "Authorization" }?.value == "***")
        let body = String(decoding: try #require(exchange.requestBody), as: UTF8.self)
        #expect(body.contains(#""token":"***""#) && !body.contains("tok-SECRET-42"), "\(body)")
        // Cut at the journal's limit, with the size it had.
        #expect(exchange.responseBody?.count == 64)
        #expect(exchange.responseBodyBytes > 64)
    }

    @Test func noAnswerIsRecordedWithWhyAndNoStatus() async throws {
        let exchanges = Exchanges()
        let client = HTTPClient(timeout: 10, recorder: exchanges)
        let scope = CallScope(profile: "alice")
        _ = try? await CallScope.$current.withValue(scope) {
            try await client.send(HTTPRequest("GET", URL(string: "http://127.0.0.1:\(server.port)/drop")!))
        }
        let exchange = try #require(exchanges.recorded.withLock { $0.first })
        #expect(exchange.status == nil)
        #expect(exchange.failure?.hasPrefix("unreachable") == true)
    }
}
