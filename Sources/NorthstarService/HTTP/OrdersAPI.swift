import Foundation
import PayRPCSync
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An Orders v2 API over HTTP: the OAuth2 client-credentials token (cached until it expires and
/// fetched again after a 401), `POST /v2/checkout/orders`, `GET` an order, `/capture`,
/// `/authorize`, `/validate-payment-method`, each POST with `PayPal-Request-Id`. Requests use
/// Foundation's `URLSession` (FoundationNetworking), time out, and run as tasks, never on the
/// event loop. Answers are Orders v2's JSON objects; mapping them is ``OrdersMapping``'s job.
final class OrdersAPI: @unchecked Sendable {
    /// What a call came to.
    enum Answer {
        /// A 2xx answer's JSON object.
        case ok([String: Any])
        /// An error answer: its HTTP status and JSON body (Orders v2's error object when it is one).
        case failed(status: Int, body: [String: Any])
        /// No answer: the connection failed or timed out.
        case unreachable(String)
    }

    let baseURL: URL
    let clientID: String
    private let secret: String?
    private let token: Lock<(value: String, expires: Date)?>
    private let session: URLSession

    /// - Parameters:
    ///   - baseURL: the API's root (`https://api-m.paypal.com`, or a test server).
    ///   - clientID: the merchant's client id.
    ///   - secret: the client secret for the token endpoint; nil when `accessToken` is given.
    ///   - accessToken: a token the merchant's server got; used until the API refuses it.
    ///   - timeout: how long one request may take.
    init(baseURL: URL, clientID: String, secret: String?, accessToken: String?, timeout: TimeInterval) {
        self.baseURL = baseURL
        self.clientID = clientID
        self.secret = secret
        token = Lock(accessToken.map { ($0, .distantFuture) })
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        session = URLSession(configuration: configuration)
    }

    /// Calls `method path` with `body`, with a bearer token; after a 401, fetches a new token
    /// once and tries again.
    func call(_ method: String, _ path: String, body: [String: Any]?, requestId: String?) async -> Answer {
        for attempt in 0..<2 {
            guard let bearer = await bearerToken(renew: attempt > 0) else {
                return .failed(status: 401, body: ["name": "AUTHENTICATION_FAILURE",
                                                   "message": "no access token: configure a client secret or an access token"])
            }
            var request = URLRequest(url: baseURL.appendingPathComponent(path))
            request.httpMethod = method
            request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("close", forHTTPHeaderField: "Connection")
            if let requestId { request.setValue(requestId, forHTTPHeaderField: "PayPal-Request-Id") }
            if let body { request.httpBody = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]) }
            let answer = await send(request)
            if case .failed(401, _) = answer, attempt == 0, secret != nil { continue }
            return answer
        }
        return .unreachable("unreachable")
    }

    /// The cached token, or a new one from `/v1/oauth2/token` (client credentials).
    private func bearerToken(renew: Bool) async -> String? {
        let cached = token.withLock { $0 }
        if let cached, !renew, cached.expires > Date() { return cached.value }
        guard let secret else { return renew ? nil : cached?.value }
        var request = URLRequest(url: baseURL.appendingPathComponent("v1/oauth2/token"))
        request.httpMethod = "POST"
        let credentials = Data("\(clientID):\(secret)".utf8).base64EncodedString()
        request.setValue("Basic \(credentials)", forHTTPHeaderField: "Authorization")
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("close", forHTTPHeaderField: "Connection")
        request.httpBody = Data("grant_type=client_credentials".utf8)
        guard case .ok(let body) = await send(request), let value = body["access_token"] as? String else { return nil }
        let lifetime = (body["expires_in"] as? NSNumber)?.doubleValue ?? 3600
        // Renewed a minute early, so a token never expires on the way.
        let renewed = (value: value, expires: Date().addingTimeInterval(max(0, lifetime - 60)))
        token.withLock { $0 = renewed }
        return value
    }

    private func send(_ request: URLRequest) async -> Answer {
        await withCheckedContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(returning: .unreachable(error.localizedDescription))
                    return
                }
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                let object = (data.flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]) ?? [:]
                continuation.resume(returning: (200..<300).contains(status) ? .ok(object) : .failed(status: status, body: object))
            }.resume()
        }
    }
}
