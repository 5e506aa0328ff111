/// One way a value breaks a schema.
public struct SchemaViolation: Sendable, Equatable, CustomStringConvertible {
    /// JSON Pointer (RFC 6901) into the validated value; `""` is the value itself.
    public var pointer: String
    /// The schema keyword that failed (`type`, `required`, `pattern`, ...).
    public var keyword: String
    /// What is wrong, for people.
    public var message: String

    /// The longest message the validator writes: what it quotes from the schema or the value is
    /// cut to fit (a long pattern, a long member name), and a named format's words are short.
    public static let maximumMessageLength = 200
    /// Makes a violation.
    public init(pointer: String, keyword: String, message: String) {
        self.pointer = pointer
        self.keyword = keyword
        self.message = message
    }

    /// `pointer: message [keyword]`, with `(root)` for the empty pointer.
    public var description: String { "\(pointer.isEmpty ? "(root)" : pointer): \(message) [\(keyword)]" }
}
