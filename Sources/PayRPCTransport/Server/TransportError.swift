import CLibUV

/// A libuv failure: the operation that failed and libuv's error code and message.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What the transport was doing (`"bind 127.0.0.1:7070"`, `"listen"`, `"open stdin"`).
    public var operation: String
    /// The libuv error code (a negated errno, e.g. `UV_EADDRINUSE`).
    public var code: Int32
    /// libuv's text for the code (`uv_strerror`), or a message of the transport's own.
    public var message: String

    /// Creates an error from a libuv return code.
    public init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
        self.message = String(cString: uv_strerror(code))
    }

    /// Creates an error with a message of the transport's own.
    public init(operation: String, code: Int32, message: String) {
        self.operation = operation
        self.code = code
        self.message = message
    }

    /// `"<operation>: <message> (<name>)"`.
    public var description: String {
        "\(operation): \(message) (\(String(cString: uv_err_name(code))))"
    }

    /// Throws a ``TransportError`` when `code` is negative.
    static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(TransportError) {
        if code < 0 { throw TransportError(operation: operation(), code: code) }
    }
}
