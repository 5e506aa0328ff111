import PayRPCJSON

/// Thrown by an inline handler that did its loop-thread part (the session's flags) and must wait
/// for the store before it can answer: the engine runs `result` as a task and answers with what
/// it returns (the result's JSON), or with the error it throws. `rpc.hello` on a store other
/// gateways share is the one user: the profile's seed is saved under the profile's lock and read
/// back as the store has it.
public struct FinishInTask: Error {
    /// Produces the result's JSON (or throws the call's error).
    public let result: @Sendable () async throws -> [UInt8]

    /// The rest of the call producing `Result`, encoded.
    public init<Result: JSONEncodable>(producing result: @escaping @Sendable () async throws -> Result) {
        self.result = {
            let value = try await result()
            var writer = JSONWriter(capacity: 128)
            value.encode(to: &writer)
            return writer.bytes
        }
    }
}
