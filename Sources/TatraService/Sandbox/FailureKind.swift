import PayRPCJSON
import PayRPCSchema

/// An error the sandbox can make the next bank call fail with (`sandbox.tatra.failNextCall`).
public enum FailureKind: String, JSONModel {
    /// `generalError`.
    case general
    /// `serviceUnavaiableError`.
    case serviceUnavailable
    /// `networkError`.
    case network
}
