import PayRPCJSON

// STUB — the schema helper replaces this file with the full draft-07 validator.
// The public API below is the contract the engine codes against; keep it.

/// A JSON Schema (draft-07) compiled once, then used to validate many values.
public final class CompiledSchema: Sendable {
    /// Compiles `schema`. `$ref`s resolve inside the schema (its `definitions`, `$id`s, JSON
    /// Pointers) and against the documents of `registry` (the draft-07 meta-schema is always known).
    /// - Throws: ``SchemaCompileError`` for a schema that is not valid draft-07 or an unresolved `$ref`.
    public init(_ schema: JSONValue, registry: SchemaRegistry = SchemaRegistry()) throws(SchemaCompileError) {
    }

    /// Every violation of the schema by `value` (empty when it is valid), each with a JSON
    /// Pointer into `value`.
    public func validate(_ value: JSONElement) -> [SchemaViolation] { [] }

    /// Whether `value` is valid; stops at the first violation.
    public func isValid(_ value: JSONElement) -> Bool { true }
}

/// Documents a `$ref` may point to by absolute URI.
public struct SchemaRegistry: Sendable {
    public init() {}
    /// Adds a document under `uri` (and under its own `$id`, when it has one).
    public mutating func add(_ document: JSONValue, uri: String) {}
}

/// One way a value breaks a schema.
public struct SchemaViolation: Sendable, Equatable, CustomStringConvertible {
    /// JSON Pointer (RFC 6901) into the validated value; `""` is the value itself.
    public var pointer: String
    /// The schema keyword that failed (`type`, `required`, `pattern`, ...).
    public var keyword: String
    /// What is wrong, for people.
    public var message: String

    public init(pointer: String, keyword: String, message: String) {
        self.pointer = pointer
        self.keyword = keyword
        self.message = message
    }

    public var description: String { "\(pointer.isEmpty ? "(root)" : pointer): \(message) [\(keyword)]" }
}

/// Why a schema could not be compiled.
public struct SchemaCompileError: Error, Sendable, CustomStringConvertible {
    /// JSON Pointer into the schema where the problem is.
    public var pointer: String
    /// What is wrong.
    public var message: String

    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }

    public var description: String { "schema \(pointer.isEmpty ? "(root)" : pointer): \(message)" }
}
