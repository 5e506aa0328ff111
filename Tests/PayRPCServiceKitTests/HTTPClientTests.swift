import Foundation
import PayRPCJSON
import PayRPCServiceKit
import PayRPCTestSupport
import Testing

/// The one HTTP client, against a real local server: generated models out and in, any status
/// an answer, timeouts and dropped connections mapped once.
@Suite struct HTTPClientTests {
    let server: PythonBackend
    var base: URL { URL(string: "http://127.0.0.1:\(server.port)")! }

    init() async throws {
        let script = try #require(Bundle.module.url(forResource: "http_echo", withExtension: "py"))
        server = try await PythonBackend(script: script.path)
    }

    @Test func aModelGoesOutAsJSONAndTheAnswerDecodesIgnoringOtherMembers() async throws {
        let client = HTTPClient(timeout: 10)
        let request = HTTPRequest(
            "POST", base.appendingPathComponent("echo"), json: ["b": "2", "a": "1"] as [String: String],
            headers: [("Idempotency-Key", "key-1")])
        let answer = try await client.send(request)
        #expect(answer.status == 200 && answer.isSuccess)
        let echoed = try answer.decode(Echo.self)
        #expect(echoed == Echo(method: "POST", contentType: "application/json", key: "key-1", body: #"{"a":"1","b":"2"}"#))
    }

    @Test func anErrorStatusIsAnAnswerAndABodyOfAnotherShapeNamesItsPointer() async throws {
        let client = HTTPClient(timeout: 10)
        let answer = try await client.send(HTTPRequest("GET", base.appendingPathComponent("status/503")))
        #expect(answer.status == 503 && !answer.isSuccess)
        #expect(
            throws: HTTPClientError.undecodable(
                status: 503, pointer: "/message",
                message: "expected an integer from -9223372036854775808 to 9223372036854775807, found string")
        ) {
            try answer.decode(Status.self)
        }
        let text = try await client.send(HTTPRequest("GET", base.appendingPathComponent("text")))
        #expect(text.text == "not json")
        #expect(throws: HTTPClientError.undecodable(status: 200, pointer: "", message: "the body is not JSON")) {
            try text.decode(Status.self)
        }
    }

    @Test func noAnswerIsTimedOutOrUnreachable() async throws {
        let slow = HTTPClient(timeout: 0.5)
        await #expect(throws: HTTPClientError.timedOut(seconds: 0.5)) {
            _ = try await slow.send(HTTPRequest("GET", base.appendingPathComponent("hang")))
        }
        #expect("\(HTTPClientError.timedOut(seconds: 0.5))" == "no answer within 0.5 s")
        #expect("\(HTTPClientError.timedOut(seconds: 10))" == "no answer within 10 s")
        let client = HTTPClient(timeout: 10)
        await #expect { _ = try await client.send(HTTPRequest("GET", base.appendingPathComponent("drop"))) } throws: { error in
            if case .unreachable? = error as? HTTPClientError { return true }
            return false
        }
        // A port nobody listens on (this server's, once it is gone).
        let closed = URL(string: "http://127.0.0.1:9/")!
        await #expect { _ = try await client.send(HTTPRequest("GET", closed)) } throws: { error in
            if case .unreachable? = error as? HTTPClientError { return true }
            return false
        }
    }
}

/// What `/echo` answers (without its `extra` member, which the decoder skips).
struct Echo: JSONDecodable, Equatable {
    var method: String
    var contentType: String
    var key: String
    var body: String

    init(method: String, contentType: String, key: String, body: String) {
        (self.method, self.contentType, self.key, self.body) = (method, contentType, key, body)
    }

    init(json: JSONElement) throws(JSONDecodingError) {
        func member(_ name: String) throws(JSONDecodingError) -> String {
            guard let value = json.member(name) else { throw .missing(name) }
            do { return try String(json: value) } catch { throw error.prefixed(name) }
        }
        (method, contentType, key, body) = (
            try member("method"), try member("contentType"), try member("key"), try member("body")
        )
    }
}

/// An answer read as if its `message` were a number.
struct Status: JSONDecodable {
    var message: Int
    init(json: JSONElement) throws(JSONDecodingError) {
        guard let value = json.member("message") else { throw .missing("message") }
        do { message = try Int(json: value) } catch { throw error.prefixed("message") }
    }
}
