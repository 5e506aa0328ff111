/// A failure of the state store, with a message that says what went wrong and where.
///
/// The engine knows it as an ``RPCErrorConvertible``: a full store is
/// ``PayRPCCore/RPCError/Code/storeFull``, anything else an internal error whose cause is logged.
/// ``description`` never contains document values or secrets.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure: an open set of constants, so new kinds do not break callers.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as logs show it.
        public var rawValue: String
        /// A code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The file exists but is not a SQLite database (or is encrypted).
        public static let notADatabase = Code(rawValue: "notADatabase")
        /// The database is damaged.
        public static let corrupt = Code(rawValue: "corrupt")
        /// The file or directory cannot be opened or created.
        public static let cannotOpen = Code(rawValue: "cannotOpen")
        /// Another process holds the database locked beyond the busy timeout.
        public static let busy = Code(rawValue: "busy")
        /// A disk error or a read-only file.
        public static let io = Code(rawValue: "io")
        /// The database reached its size limit (``StoreConfiguration/maximumBytes``) or the disk is
        /// full: the write was not made; nothing stored before it is lost.
        public static let full = Code(rawValue: "full")
        /// A constraint of the schema refused the write (a caller's mistake, not the disk's).
        public static let constraint = Code(rawValue: "constraint")
        /// An argument was refused before reaching the database (empty profile, ...).
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// A stored document does not decode into the type asked for.
        public static let invalidDocument = Code(rawValue: "invalidDocument")
        /// The store was closed.
        public static let closed = Code(rawValue: "closed")
        /// The server key file is unreadable, malformed or cannot be created.
        public static let secretKey = Code(rawValue: "secretKey")
        /// OpenSSL's libcrypto refused an operation (out of memory, no random bytes, a missing
        /// algorithm): the message names the operation and OpenSSL's reason.
        public static let cryptography = Code(rawValue: "cryptography")
        /// The database server cannot be reached (PostgreSQL down, restarting, the connection
        /// lost): nothing was written, or, when the connection broke during a commit, the outcome is
        /// unknown (a -32009 frees an idempotency key, so a repeat runs the call again). Retryable:
        /// the same call succeeds once the server is back.
        public static let unavailable = Code(rawValue: "unavailable")
        /// A concurrent transaction of another connection or instance made this one impossible to
        /// serialize (PostgreSQL's SQLSTATE 40001 or 40P01); the store runs it again before
        /// giving up with this code.
        public static let conflict = Code(rawValue: "conflict")
        /// Any other database failure.
        public static let database = Code(rawValue: "database")
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, for logs and operators.
    public var message: String

    /// An error of `code` saying `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message, for logs.
    public var description: String { "store error (\(code)): \(message)" }
}
