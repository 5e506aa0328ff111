import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Sandbox only: makes the next call of a tatra method on this connection fail with
/// `generalError`, `serviceUnavaiableError` or `networkError`, as if the bank or the network had
/// failed.
///
/// One failure per call of this helper; it is consumed by the next call of that method on this
/// connection (before anything else is checked) and forgotten when the connection closes.
public enum SandboxFailNextCall: TatraMethod {
    public static let name = "sandbox.tatra.failNextCall"

    /// Which call fails and how.
    public struct Params: JSONModel, Equatable {
        /// The canonical name of the method whose next call fails.
        public var method: TatraBankCall
        /// The error it fails with.
        public var error: FailureKind

        /// Creates the value from its members.
        public init(method: TatraBankCall, error: FailureKind) {
            self.method = method
            self.error = error
        }
    }

    public typealias Result = NoResult
    public static let mutates = true
    public static let sandboxOnly = true
}
