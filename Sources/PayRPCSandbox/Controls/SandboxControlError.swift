import PayRPCCore
import PayRPCJSON
/// A sandbox control was used wrongly (moving the clock backwards); answered as invalid params.
public struct SandboxControlError: Error, Sendable, Equatable, RPCErrorConvertible {
    /// What is wrong.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var rpcError: RPCError {
        RPCError(.invalidParams, "Invalid params", data: ["detail": .string(message)])
    }
}
