/// Why a schema could not be compiled.
public struct SchemaCompileError: Error, Sendable, CustomStringConvertible {
    /// JSON Pointer into the schema where the problem is. For a problem inside another
    /// document of the registry, the document's URI followed by `#` and the pointer.
    public var pointer: String
    /// What is wrong.
    public var message: String

    /// Makes an error.
    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }

    /// `schema pointer: message`, with `(root)` for the empty pointer.
    public var description: String { "schema \(pointer.isEmpty ? "(root)" : pointer): \(message)" }
}
