import PayRPCJSON

/// A JSON Schema (draft-07) compiled once, then used to validate many values.
///
/// Compilation resolves every `$ref`, compiles every `pattern` once and turns each subschema
/// into a node of precomputed keyword checks; validation then walks the value and the node
/// table without building strings unless it reports a violation. The yes/no question that
/// nearly every call asks, ``isValid(_:)``, walks the same table rewritten as a
/// ``ValidityProgram`` (trivial values, one pass per object), the reporting walk only runs for
/// an invalid value. A compiled schema is immutable and can be shared between threads.
///
/// What is implemented: all draft-07 validation keywords; `$ref` with `$id` base URIs,
/// plain-name `#anchor` ids, JSON Pointer fragments (with `~0`/`~1` and `%XX` escapes) and
/// recursive references; the draft-07 meta-schema (always known); the formats of
/// ``StringFormat`` (others are ignored). `pattern` uses ICU regular expressions, see
/// ``ECMARegex`` for where they differ from ECMA-262.
public final class CompiledSchema: Sendable {
    /// The node table; node 0 is the root. The collecting walker (``validate(_:)``) reads it.
    let nodes: [SchemaNode]
    /// The node table rewritten for ``isValid(_:)``.
    let program: ValidityProgram
    /// What the schema says about its values in words (`x-format`, `x-spelling`), for messages.
    let words: SchemaWords

    /// Compiles `schema`. `$ref`s resolve inside the schema (its `definitions`, `$id`s, JSON
    /// Pointers) and against the documents of `registry` (the draft-07 meta-schema is always known).
    /// - Throws: ``SchemaCompileError`` for a schema that is not valid draft-07 or an unresolved `$ref`.
    public init(_ schema: JSONValue, registry: SchemaRegistry = SchemaRegistry()) throws(SchemaCompileError) {
        var compiler = SchemaCompiler(root: schema, registry: registry)
        nodes = try compiler.compile()
        words = compiler.words
        program = ValidityProgram(compiling: nodes)
    }

    /// The draft-07 meta-schema, compiled: validates that a document is a draft-07 schema.
    public static let draft07MetaSchema: CompiledSchema? = try? CompiledSchema(
        ["$ref": .string(SchemaRegistry.draft07MetaSchemaURI + "#")])

    /// Every violation of the schema by `value` (empty when it is valid), each with a JSON
    /// Pointer into `value`.
    ///
    /// A failed `anyOf` or `oneOf` is one violation at its location, not one per branch.
    /// Missing `required` members are reported at the object, naming the member; an `anyOf` of
    /// branches that each require one member is reported as that member missing. A string that
    /// breaks a schema with `x-format` hears the format's name and example (see ``SchemaWords``).
    /// No message is longer than ``SchemaViolation/maximumMessageLength`` characters.
    ///
    /// Valid values (nearly every call) take the ``isValid(_:)`` path, which stops early and keeps
    /// no path; only an invalid value is walked again to collect its violations.
    public func validate(_ value: JSONElement) -> [SchemaViolation] {
        if isValid(value) { return [] }
        return validateCollectingOnly(value)
    }

    /// Whether `value` is valid; stops at the first violation.
    ///
    /// Walks ``ValidityProgram``, the node table rewritten so that a visit copies no reference,
    /// rather than the nodes ``validate(_:)`` reports from; the answers are the same.
    public func isValid(_ value: JSONElement) -> Bool {
        holds(ValidityProgram.root, value)
    }

    /// Every violation of the schema by `value`, found by the collecting walker alone (without
    /// asking ``isValid(_:)`` first); the reference the tests compare ``isValid(_:)`` with.
    func validateCollectingOnly(_ value: JSONElement) -> [SchemaViolation] {
        var run = ValidationRun(collect: true)
        _ = check(0, value, &run)
        return run.violations
    }

    /// Every violation of the schema by an owned value (written and parsed onto a tape first).
    public func validate(_ value: JSONValue) -> [SchemaViolation] {
        guard let tape = Self.tape(value) else { return [SchemaViolation(pointer: "", keyword: "type", message: "not JSON")] }
        return tape.withRoot { validate($0) }
    }

    /// Whether an owned value is valid.
    public func isValid(_ value: JSONValue) -> Bool {
        guard let tape = Self.tape(value) else { return false }
        return tape.withRoot { isValid($0) }
    }

    private static func tape(_ value: JSONValue) -> JSONTape? {
        var writer = JSONWriter()
        value.encode(to: &writer)
        return try? JSONTape(copying: writer.bytes)
    }
}
