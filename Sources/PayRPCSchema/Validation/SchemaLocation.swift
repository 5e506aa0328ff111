import PayRPCJSON

/// Where a subschema sits: its document, its path in that document, and the base URI in
/// effect inside it (after its own `$id`).
struct SchemaLocation {
    /// Index of the document in the compiler's document list (0 is the schema being compiled).
    var document: Int
    /// Reference tokens from the document's root, unescaped.
    var path: [String]
    /// The base URI `$ref`s and `$id`s inside this subschema resolve against.
    var base: SchemaURI
    /// The subschema itself.
    var value: JSONValue

    /// A key that identifies the location (one compiled node per location).
    var key: String { "\(document)\u{0}" + JSONPointer.pointer(path) }

    /// The location of `value` found at `token` below this one.
    func child(_ token: String, _ value: JSONValue) -> SchemaLocation {
        SchemaLocation(document: document, path: path + [token], base: Self.base(of: value, inherited: base), value: value)
    }

    /// The location of `value` found at `keyword`/`token` below this one.
    func child(_ keyword: String, _ token: String, _ value: JSONValue) -> SchemaLocation {
        SchemaLocation(
            document: document, path: path + [keyword, token], base: Self.base(of: value, inherited: base),
            value: value)
    }

    /// The base URI inside `value`: its `$id` resolved against `inherited`, without fragment.
    /// A `$id` next to a `$ref` is ignored, as draft-07 ignores every sibling of `$ref`.
    static func base(of value: JSONValue, inherited: SchemaURI) -> SchemaURI {
        guard case .object = value, value["$ref"] == nil, let id = value["$id"]?.stringValue else { return inherited }
        var resolved = SchemaURI(id).resolved(against: inherited)
        resolved.fragment = nil
        return resolved
    }

    /// The location reached by following the JSON Pointer `tokens` from here.
    func following(_ tokens: [String]) -> SchemaLocation? {
        var current = self
        for token in tokens {
            let next: JSONValue
            switch current.value {
            case .object(let members):
                guard let member = members.first(where: { $0.name == token }) else { return nil }
                next = member.value
            case .array(let items):
                guard let position = Int(token), position >= 0, position < items.count,
                    token == String(position)
                else { return nil }
                next = items[position]
            default:
                return nil
            }
            current = current.child(token, next)
        }
        return current
    }
}
