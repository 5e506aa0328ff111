import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a POST to the backend came to.
enum PostOutcome: Sendable, Equatable {
    /// A 2xx answer and its body.
    case accepted(Data)
    /// An answer of another status, and the server's message.
    case serverError(status: Int, message: String)
    /// No answer: the connection failed, dropped, or timed out.
    case networkError(String)
}

/// POSTs JSON to the journal's Web API with Foundation's `URLSession` (FoundationNetworking,
/// libcurl underneath): a real HTTP client, with a per-request timeout, never on the event loop
/// (callers are tasks).
struct HTTPPoster: Sendable {
    /// How long a request may take before it is a network error.
    let timeout: TimeInterval
    private let session: URLSession

    /// A client whose requests time out after `timeout` seconds.
    init(timeout: TimeInterval) {
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 8
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        session = URLSession(configuration: configuration)
    }

    /// POSTs `body` to `url` with the `Idempotency-Key` header.
    func post(_ url: URL, body: Data, idempotencyKey: String) async -> PostOutcome {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
        // One connection per POST: with kept-alive connections that a failing backend drops,
        // FoundationNetworking's libcurl transfers were seen to stall past their timeout (the
        // 1,000-entry test hung); a fresh local connection per POST costs far less.
        request.setValue("close", forHTTPHeaderField: "Connection")
        return await withCheckedContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(returning: .networkError(error.localizedDescription))
                    return
                }
                guard let http = response as? HTTPURLResponse else {
                    continuation.resume(returning: .networkError("no HTTP response"))
                    return
                }
                let body = data ?? Data()
                if (200..<300).contains(http.statusCode) {
                    continuation.resume(returning: .accepted(body))
                } else {
                    continuation.resume(returning: .serverError(status: http.statusCode, message: Self.message(in: body)))
                }
            }
            task.resume()
        }
    }

    /// The server's message: a JSON body's `message` (or `error`), else the body's text.
    static func message(in body: Data) -> String {
        if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
            if let message = object["message"] as? String { return message }
            if let message = object["error"] as? String { return message }
        }
        return String(decoding: body.prefix(500), as: UTF8.self)
    }
}
