/// How an outbox POST is tried: once, then again after each wait of `backoff` while no answer
/// comes (the connection failed or timed out). An answer of any status ends the tries: whether it
/// is a success is the service's to say (a 2xx, a body of `OK`).
///
/// The request goes out unchanged every time: an `Idempotency-Key` (or another id) in it is the
/// same on every try, so the other side never acts twice. Each try is reported to `attempted`
/// before the next wait, so the outbox can record it.
public struct DeliveryRetry: Sendable {
    /// The one HTTP client.
    public let client: HTTPClient
    /// The waits before the second, third, ... tries.
    public let backoff: [Duration]

    /// Tries with `client`, waiting `backoff` between the tries.
    public init(client: HTTPClient, backoff: [Duration]) {
        self.client = client
        self.backoff = backoff
    }

    /// Sends `request` until an answer comes or the tries run out.
    /// - Parameter attempted: called after each try with its outcome (to record it); what it
    ///   throws ends the tries and is rethrown.
    /// - Returns: the answer, or the last failure when no try got one (or the task was cancelled
    ///   during a wait).
    public func send(_ request: HTTPRequest,
                     attempted: (Result<HTTPResponse, HTTPClientError>) async throws -> Void) async rethrows
        -> Result<HTTPResponse, HTTPClientError>
    {
        var outcome: Result<HTTPResponse, HTTPClientError> = .failure(.unreachable("not sent"))
        for attempt in 0...backoff.count {
            if attempt > 0 {
                do { try await Task.sleep(for: backoff[attempt - 1]) } catch { return outcome }
            }
            do { outcome = .success(try await client.send(request)) } catch { outcome = .failure(error) }
            try await attempted(outcome)
            if case .success = outcome { return outcome }
        }
        return outcome
    }
}
