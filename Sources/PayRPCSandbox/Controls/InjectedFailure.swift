import PayRPCCore
/// An error to answer a call with instead of running it (`sandbox.failNext`).
public struct InjectedFailure: Sendable, Equatable {
    /// The error, exactly as it will be sent.
    public let error: RPCError

    public init(error: RPCError) {
        self.error = error
    }
}
