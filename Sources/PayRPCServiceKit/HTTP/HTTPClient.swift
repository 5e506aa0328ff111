import CCurlLoader
import Dispatch
import Foundation
import PayRPCCore

/// The one client for every outgoing HTTP call a service makes (the journal's Web API, Orders v2,
/// a callback): libcurl's easy interface, wrapped once (`CCurlLoader`).
///
/// libcurl is loaded with `dlopen` on the first request, not linked, so a gateway that never calls
/// out (a stdio sandbox, a test suite's worker) never maps it and its dependencies
/// (docs/benchmarks.md, "Start-up"). Bodies are the project's generated models
/// (``HTTPRequest/init(_:_:json:headers:)``, ``HTTPResponse/decode(_:)``), never untyped
/// dictionaries. Every request times out after the client's timeout and goes on a fresh
/// connection (`Connection: close`: a backend that drops kept-alive connections cannot stall a
/// transfer). Redirects are followed, as Foundation's `URLSession` did. Failures are mapped once:
/// no answer is ``HTTPClientError/unreachable(_:)`` or ``HTTPClientError/timedOut``; any answer,
/// whatever its status, is an ``HTTPResponse``. Calls run as tasks, never on the event loop; the
/// transfer itself blocks a thread of the client's own queue, never one of the tasks' pool.
public struct HTTPClient: Sendable {
    /// How long one request may take.
    public let timeout: TimeInterval
    /// The call journal each exchange is recorded in (nil: none).
    public let recorder: (any CallRecorder)?
    /// How long one request to a Web API may take unless the gateway is told otherwise
    /// (`serve --web-api-timeout`).
    public static let defaultTimeout: TimeInterval = 10

    /// The threads transfers block on: concurrent, so a slow backend does not hold up the others.
    private static let transfers = DispatchQueue(label: "payrpc.http-client", attributes: .concurrent)

    /// A client whose requests time out after `timeout` seconds, recording its exchanges in
    /// `recorder` (the call journal; nil: none).
    public init(timeout: TimeInterval, recorder: (any CallRecorder)? = nil) {
        self.timeout = timeout
        self.recorder = recorder
    }

    /// Sends `request` and returns the answer.
    /// - Throws: ``HTTPClientError`` when no answer came.
    public func send(_ request: HTTPRequest) async throws(HTTPClientError) -> HTTPResponse {
        let timeoutMilliseconds = max(1, Int(timeout * 1000))
        let started = Date()
        let outcome: Result<HTTPResponse, HTTPClientError> = await withCheckedContinuation { continuation in
            Self.transfers.async {
                continuation.resume(returning: Self.perform(request, timeoutMilliseconds: timeoutMilliseconds))
            }
        }
        if let recorder {
            HTTPExchangeJournal.record(
                request, outcome, started: started, duration: Date().timeIntervalSince(started), into: recorder)
        }
        return try outcome.get()
    }

    /// One blocking exchange through libcurl.
    private static func perform(_ request: HTTPRequest, timeoutMilliseconds: Int) -> Result<HTTPResponse, HTTPClientError> {
        let lines = request.headers.map { "\($0.name): \($0.value)" } + ["Connection: close"]
        let headers = lines.map { strdup($0) }
        defer { headers.forEach { free($0) } }
        var response = payrpc_http_response()
        let outcome = request.method.withCString { method in
            request.url.absoluteString.withCString { url in
                headers.map { UnsafePointer($0) }.withUnsafeBufferPointer { headerPointers in
                    let perform = { (body: UnsafePointer<UInt8>?, length: Int) in
                        var exchange = payrpc_http_request(
                            method: method, url: url, headers: headerPointers.baseAddress, header_count: headerPointers.count,
                            body: body, body_length: length, timeout_ms: timeoutMilliseconds
                        )
                        return payrpc_http_perform(&exchange, &response)
                    }
                    guard let body = request.body else { return perform(nil, 0) }
                    return body.withUnsafeBufferPointer { bytes in
                        // A present but empty body still makes a request with a body (an empty POST).
                        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { empty in
                            perform(bytes.baseAddress ?? UnsafePointer(empty.baseAddress!), bytes.count)
                        }
                    }
                }
            }
        }
        defer { payrpc_http_free(&response) }
        switch outcome {
        case PAYRPC_HTTP_ANSWERED:
            let body = response.body.map { Array(UnsafeBufferPointer(start: $0, count: response.body_length)) } ?? []
            return .success(HTTPResponse(status: response.status, body: body))
        case PAYRPC_HTTP_TIMED_OUT:
            return .failure(.timedOut(seconds: Double(timeoutMilliseconds) / 1000))
        default:
            let reason = withUnsafeBytes(of: response.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return .failure(.unreachable(reason))
        }
    }
}
