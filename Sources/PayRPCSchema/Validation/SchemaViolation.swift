/// One way a value breaks a schema.
public struct SchemaViolation: Sendable, Equatable, CustomStringConvertible {
    /// JSON Pointer (RFC 6901) into the validated value; `""` is the value itself.
    public var pointer: String
    /// The schema keyword that failed (`type`, `required`, `pattern`, ...).
    public var keyword: String
    /// What is wrong, for people.
    public var message: String

    /// Makes a violation.
    public init(pointer: String, keyword: String, message: String) {
        self.pointer = pointer
        self.keyword = keyword
        self.message = message
    }

    /// `pointer: message [keyword]`, with `(root)` for the empty pointer.
    public var description: String { "\(pointer.isEmpty ? "(root)" : pointer): \(message) [\(keyword)]" }
}
