import Foundation
import PayRPCServiceKit
import PayRPCSync

/// An Orders v2 API over HTTP, through the kit's ``HTTPClient``: the OAuth2 client-credentials
/// token (cached until it expires and fetched again after a 401), `POST /v2/checkout/orders`, `GET`
/// an order, `/capture`, `/authorize`, `/validate-payment-method`, each POST with
/// `PayPal-Request-Id`. Bodies are Orders v2's wire models (``WireOrderRequest``, ``WireOrder``,
/// ``WireError``); mapping them to the SDK's shapes is ``OrdersMapping``'s job.
final class OrdersAPI: Sendable {
    /// What a call came to.
    enum Answer: Sendable {
        /// A 2xx answer.
        case ok(HTTPResponse)
        /// An error answer: its HTTP status and Orders v2 error body (empty when it is none).
        case failed(status: Int, body: WireError)
        /// No answer: the connection failed or timed out.
        case unreachable(String)
    }

    let baseURL: URL
    let clientID: String
    private let secret: String?
    private let token: Lock<(value: String, expires: Date)?>
    private let client: HTTPClient

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
        client = HTTPClient(timeout: timeout)
    }

    /// Calls `method path` with `body`, with a bearer token; after a 401, fetches a new token
    /// once and tries again.
    func call(_ method: String, _ path: String, body: WireOrderRequest?, requestId: String?) async -> Answer {
        for attempt in 0..<2 {
            guard let bearer = await bearerToken(renew: attempt > 0) else {
                return .failed(status: 401, body: WireError(name: "AUTHENTICATION_FAILURE",
                                                            message: "no access token: configure a client secret or an access token"))
            }
            let url = baseURL.appendingPathComponent(path)
            var headers = [(name: "Authorization", value: "Bearer \(bearer)")]
            if let requestId { headers.append(("PayPal-Request-Id", requestId)) }
            let request = body.map { HTTPRequest(method, url, json: $0, headers: headers) }
                ?? HTTPRequest(method, url, headers: [("Content-Type", "application/json")] + headers)
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
        let credentials = Data("\(clientID):\(secret)".utf8).base64EncodedString()
        let request = HTTPRequest("POST", baseURL.appendingPathComponent("v1/oauth2/token"), form: "grant_type=client_credentials",
                                  headers: [("Authorization", "Basic \(credentials)")])
        guard case .ok(let answer) = await send(request), let body = try? answer.decode(WireToken.self),
              let value = body.accessToken else { return nil }
        // Renewed a minute early, so a token never expires on the way.
        let renewed = (value: value, expires: Date().addingTimeInterval(max(0, (body.expiresIn ?? 3600) - 60)))
        token.withLock { $0 = renewed }
        return value
    }

    private func send(_ request: HTTPRequest) async -> Answer {
        let response: HTTPResponse
        do {
            response = try await client.send(request)
        } catch {
            return .unreachable(error.description)
        }
        guard response.isSuccess else {
            return .failed(status: response.status, body: (try? response.decode(WireError.self)) ?? WireError())
        }
        return .ok(response)
    }
}
