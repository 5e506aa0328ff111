import Foundation
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import PayRPCSync

/// An Orders v2 API over HTTP, through the kit's ``HTTPClient``: the OAuth2 client-credentials
/// token (fetched once however many calls need it at the same time, cached until it expires, and
/// fetched again after a 401), `POST /v2/checkout/orders`, `GET` an order, `/capture`,
/// `/authorize`, `/confirm-payment-source`, and Payments v2's capture of an authorization, each
/// POST with `PayPal-Request-Id`. Bodies are the wire models (``WireOrder``,
/// ``WireCaptureRequest``, ``WirePayment``, ``WireError``); mapping them to the SDK's shapes is
/// ``OrdersMapping``'s job.
final class OrdersAPI: Sendable {
    /// What a call came to.
    enum Answer: Sendable {
        /// A 2xx answer.
        case ok(HTTPResponse)
        /// An error answer: its HTTP status and Orders v2 error body (empty when it is none).
        case failed(status: Int, body: WireError)
        /// No answer: the connection failed, dropped, or timed out.
        case unreachable(String)
    }

    /// The access token: none yet, being fetched (with the calls waiting for it), or ready.
    private enum TokenState {
        case none
        case fetching([CheckedContinuation<TokenOutcome?, Never>])
        case ready(value: String, expires: Date)
    }

    /// A token, or what the token endpoint's failure came to.
    private enum TokenOutcome: Sendable {
        case token(String)
        case failed(Answer)
    }

    let baseURL: URL
    let clientID: String
    private let secret: String?
    private let token: Lock<TokenState>
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
        token = Lock(accessToken.map { .ready(value: $0, expires: .distantFuture) } ?? .none)
        client = HTTPClient(timeout: timeout)
    }

    /// Calls `method path` with `body`, with a bearer token; after a 401, fetches a new token
    /// once and tries again. A failure of the token endpoint is the call's answer. `answer` is the
    /// model of a 2xx body, whose secrets the request's ``HTTPRequest/responseMask`` masks (an
    /// order's card number).
    func call(
        _ method: String, _ path: String, body: (any JSONEncodable)?, requestId: String?,
        answer: any JSONSchemaProvider.Type = WireOrder.self
    ) async -> Answer {
        var refused: String?
        while true {
            let bearer: String
            switch await bearerToken(replacing: refused) {
            case .token(let value): bearer = value
            case .failed(let answer): return answer
            }
            let url = baseURL.appendingPathComponent(path)
            var headers = [(name: "Authorization", value: "Bearer \(bearer)")]
            if let requestId { headers.append(("PayPal-Request-Id", requestId)) }
            let request =
                (body.map { HTTPRequest(method, url, json: $0, headers: headers) }
                ?? HTTPRequest(method, url, headers: [("Content-Type", "application/json")] + headers))
                .expecting(answer)
            let answer = await send(request)
            guard case .failed(401, _) = answer, refused == nil, secret != nil else { return answer }
            refused = bearer
        }
    }

    /// The cached token, or a new one from `/v1/oauth2/token` (client credentials) when there is
    /// none, it expired, or it is `refused` (the API answered 401 to it). Calls that need a token
    /// while one is being fetched wait for that one: a fresh configuration fetches one token.
    private func bearerToken(replacing refused: String?) async -> TokenOutcome {
        let waited: TokenOutcome? = await withCheckedContinuation { continuation in
            let usable: TokenOutcome?? = token.withLock { state in
                switch state {
                case .ready(let value, let expires) where value != refused && expires > Date():
                    return .some(.token(value))
                case .ready(let value, _) where secret == nil:
                    // A token given by the merchant, and no secret to get another.
                    return .some(
                        value == refused
                            ? .failed(
                                .failed(
                                    status: 401,
                                    body: WireError(
                                        name: "AUTHENTICATION_FAILURE",
                                        message: "the API refused the access token, and there is no client secret to get another")
                                ))
                            : .token(value))
                case .fetching(var waiting):
                    waiting.append(continuation)
                    state = .fetching(waiting)
                    return nil
                case .none, .ready:
                    state = .fetching([])
                    return .some(nil)
                }
            }
            if let usable { continuation.resume(returning: usable) }
        }
        if let waited { return waited }
        let fetched = await fetchToken()
        let waiting: [CheckedContinuation<TokenOutcome?, Never>] = token.withLock { state in
            guard case .fetching(let waiting) = state else { return [] }
            if case .token(let value, let expires) = fetched {
                state = .ready(value: value, expires: expires)
            } else {
                state = .none
            }
            return waiting
        }
        let outcome: TokenOutcome =
            switch fetched {
            case .token(let value, _): .token(value)
            case .failed(let answer): .failed(answer)
            }
        for continuation in waiting { continuation.resume(returning: outcome) }
        return outcome
    }

    /// What one request to the token endpoint came to.
    private enum Fetched {
        case token(String, expires: Date)
        case failed(Answer)
    }

    /// One request to `/v1/oauth2/token`. Its failures are told apart: no answer (unreachable), a
    /// 5xx, or the credentials refused (`invalid_client`), each with what the endpoint said.
    private func fetchToken() async -> Fetched {
        guard let secret else {
            return .failed(
                .failed(
                    status: 401,
                    body: WireError(
                        name: "AUTHENTICATION_FAILURE",
                        message: "no access token: configure a client secret or an access token")))
        }
        let credentials = Data("\(clientID):\(secret)".utf8).base64EncodedString()
        let request = HTTPRequest(
            "POST", baseURL.appendingPathComponent("v1/oauth2/token"), form: "grant_type=client_credentials",
            headers: [("Authorization", "Basic \(credentials)")]
        ).expecting(WireToken.self)
        let response: HTTPResponse
        do {
            response = try await client.send(request)
        } catch {
            return .failed(.unreachable("the token endpoint (POST /v1/oauth2/token): \(error.description)"))
        }
        let body = try? response.decode(WireToken.self)
        guard response.isSuccess, let value = body?.accessToken else {
            let said = [body?.error, body?.errorDescription].compactMap { $0 }.joined(separator: ": ")
            let message = "POST /v1/oauth2/token answered \(response.status)" + (said.isEmpty ? "" : " (\(said))")
            let name = response.status >= 500 ? "INTERNAL_SERVER_ERROR" : body?.error ?? "AUTHENTICATION_FAILURE"
            // A 2xx without a token is the endpoint's failure too.
            let status = response.isSuccess ? 502 : response.status
            return .failed(.failed(status: status, body: WireError(name: name, message: message)))
        }
        // Renewed a minute early, so a token never expires on the way.
        return .token(value, expires: Date().addingTimeInterval(max(0, (body?.expiresIn ?? 3600) - 60)))
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
