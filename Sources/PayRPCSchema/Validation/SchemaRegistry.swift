import PayRPCJSON

/// Documents a `$ref` may point to by absolute URI.
///
/// The draft-07 meta-schema (`http://json-schema.org/draft-07/schema#`) is always known and
/// need not be added. Nothing is fetched from the network: a `$ref` to a document that is not
/// in the registry is a ``SchemaCompileError``.
public struct SchemaRegistry: Sendable {
    /// The documents in the order they were added, each with the URI it was added under.
    var documents: [(uri: String, document: JSONValue)] = []

    /// An empty registry (the draft-07 meta-schema is still known).
    public init() {}

    /// Adds a document under `uri` (and under its own `$id`, when it has one).
    public mutating func add(_ document: JSONValue, uri: String) {
        documents.append((uri, document))
    }

    /// The draft-07 meta-schema, as a document.
    public static var draft07MetaSchema: JSONValue { Draft07MetaSchema.document }

    /// The URI the draft-07 meta-schema is known under.
    public static let draft07MetaSchemaURI = "http://json-schema.org/draft-07/schema"
}
