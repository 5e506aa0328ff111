import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one client for every outgoing HTTP call a service makes (the journal's Web API, Orders v2,
/// a callback): Foundation's `URLSession` (FoundationNetworking, libcurl underneath), wrapped once.
///
/// Bodies are the project's generated models (``HTTPRequest/init(_:_:json:headers:)``,
/// ``HTTPResponse/decode(_:)``), never untyped dictionaries. Every request times out after the
/// client's timeout and goes on a fresh connection (`Connection: close`: with kept-alive
/// connections that a failing backend drops, FoundationNetworking's transfers were seen to stall
/// past their timeout). Failures are mapped once: no answer is ``HTTPClientError/unreachable(_:)``
/// or ``HTTPClientError/timedOut``; any answer, whatever its status, is an ``HTTPResponse``.
/// Calls run as tasks, never on the event loop.
public struct HTTPClient: Sendable {
    /// How long one request may take.
    public let timeout: TimeInterval
    private let session: URLSession

    /// A client whose requests time out after `timeout` seconds.
    public init(timeout: TimeInterval) {
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 8
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        session = URLSession(configuration: configuration)
    }

    /// Sends `request` and returns the answer.
    /// - Throws: ``HTTPClientError`` when no answer came.
    public func send(_ request: HTTPRequest) async throws(HTTPClientError) -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for header in request.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
        urlRequest.setValue("close", forHTTPHeaderField: "Connection")
        if let body = request.body { urlRequest.httpBody = Data(body) }
        let outcome: Result<HTTPResponse, HTTPClientError> = await withCheckedContinuation { continuation in
            session.dataTask(with: urlRequest) { data, response, error in
                if let error {
                    let timedOut = (error as? URLError)?.code == .timedOut
                    continuation.resume(returning: .failure(timedOut ? .timedOut : .unreachable(error.localizedDescription)))
                } else if let http = response as? HTTPURLResponse {
                    continuation.resume(returning: .success(HTTPResponse(status: http.statusCode, body: Array(data ?? Data()))))
                } else {
                    continuation.resume(returning: .failure(.unreachable("no HTTP response")))
                }
            }.resume()
        }
        return try outcome.get()
    }
}
