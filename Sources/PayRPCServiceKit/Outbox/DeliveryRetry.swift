import PayRPCStore

/// How an outbox POST is tried: once, then again after each wait of `backoff` while no answer
/// comes (the connection failed or timed out). An answer of any status ends the tries: whether it
/// is a success is the service's to say (a 2xx, a body of `OK`).
///
/// The request goes out unchanged every time: an `Idempotency-Key` (or another id) in it is the
/// same on every try, so the other side never acts twice. Each try is reported to `attempted`
/// before the next wait, so the outbox can record it. A try is an HTTP request sent with
/// ``client`` (``send(_:attempted:)``) or any other way of getting an answer, such as a sandbox
/// that answers without HTTP (``run(_:attempted:)``); the rule is the same.
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

    /// Sends `request` with ``client`` until an answer comes or the tries run out.
    /// - Parameters:
    ///   - first: the index of the first try to make (0: the first of all; `n`: resume a
    ///     delivery whose try `n` is due now, without waiting, with the waits after it).
    ///   - attempted: called after each try with its outcome (to record it); what it throws ends
    ///     the tries and is rethrown.
    /// - Returns: the answer, or the last failure when no try got one (or the task was cancelled
    ///   during a wait).
    public func send(
        _ request: HTTPRequest, from first: Int = 0,
        attempted: (Result<HTTPResponse, HTTPClientError>) async throws -> Void
    ) async rethrows
        -> Result<HTTPResponse, HTTPClientError>
    {
        var tries = min(max(0, first), backoff.count)
        return try await run(
            {
                tries += 1
                return await sendOnce(request, attempt: tries)
            }, from: first, attempted: attempted)
    }

    /// What the transaction that records a try publishes with it on a shared store (the try made,
    /// the next one armed; see ``DeliveryClaims``); nil on the embedded store.
    public typealias Publishing = @Sendable (StoreTransaction) throws -> Void

    /// ``send(_:from:attempted:)`` whose tries are claimed across gateways by `claims` (nil: this
    /// gateway alone): `attempted` gets, with each outcome, what makes the publishing of its
    /// recording transaction (``TryRecording``; nil without `claims`).
    /// - Throws: what `attempted` throws.
    public func send(
        _ request: HTTPRequest, from first: Int = 0, claims: DeliveryClaims?,
        attempted: (Result<HTTPResponse, HTTPClientError>, TryRecording?) async throws -> Void
    ) async throws -> Result<HTTPResponse, HTTPClientError> {
        var tries = min(max(0, first), backoff.count)
        return try await run(
            {
                tries += 1
                return await sendOnce(request, attempt: tries)
            }, from: first, claims: claims, attempted: attempted)
    }

    /// ``run(_:from:attempted:)`` whose tries are claimed across gateways by `claims`, as
    /// ``send(_:from:claims:attempted:)`` does.
    /// - Throws: what `attempt` or `attempted` throws.
    public func run(
        _ attempt: () async throws -> Result<HTTPResponse, HTTPClientError>, from first: Int = 0,
        claims: DeliveryClaims?,
        attempted: (Result<HTTPResponse, HTTPClientError>, TryRecording?) async throws -> Void
    ) async throws -> Result<HTTPResponse, HTTPClientError> {
        guard let claims else { return try await run(attempt, from: first) { try await attempted($0, nil) } }
        var index = min(max(0, first), backoff.count)
        return try await run(attempt, from: first) { outcome in
            let made = index
            index += 1
            let failed = if case .failure = outcome { true } else { false }
            try await attempted(outcome, TryRecording(claims: claims, failed: failed, index: made, backoff: backoff))
            await claims.recorded()
        }
    }

    /// Try `attempt` (from 1) of `request` with ``client``.
    private func sendOnce(_ request: HTTPRequest, attempt: Int) async -> Result<HTTPResponse, HTTPClientError> {
        var request = request
        request.attempt = attempt
        do { return .success(try await client.send(request)) } catch { return .failure(error) }
    }

    /// Makes the try `attempt` until it gets an answer or the tries run out.
    /// - Parameters:
    ///   - attempt: one try: the answer, or why none came; what it throws ends the tries and is
    ///     rethrown.
    ///   - first: the index of the first try to make, made at once (see ``send(_:from:attempted:)``).
    ///   - attempted: called after each try with its outcome (to record it); what it throws ends
    ///     the tries and is rethrown.
    /// - Returns: the answer, or the last failure when no try got one (or the task was cancelled
    ///   during a wait).
    public func run(
        _ attempt: () async throws -> Result<HTTPResponse, HTTPClientError>, from first: Int = 0,
        attempted: (Result<HTTPResponse, HTTPClientError>) async throws -> Void
    ) async rethrows
        -> Result<HTTPResponse, HTTPClientError>
    {
        var outcome: Result<HTTPResponse, HTTPClientError> = .failure(.unreachable("not sent"))
        let start = min(max(0, first), backoff.count)
        for index in start...backoff.count {
            if index > start {
                do { try await Task.sleep(for: backoff[index - 1]) } catch { return outcome }
            }
            outcome = try await attempt()
            try await attempted(outcome)
            if case .success = outcome { return outcome }
        }
        return outcome
    }
}
