import PayRPCJSON

/// Every place a `$ref` can land by URI: each document's root, each subschema with an
/// absolute or relative `$id` (a resource), and each `"$id": "#name"` (a plain-name anchor).
///
/// Only subschema positions are walked (`properties` values, `items`, `definitions`, ...),
/// so an `$id` inside an `enum` or `const` value is data, not an identifier.
struct SchemaIndex {
    /// Resources by URI without fragment (``SchemaURI/documentKey``).
    private(set) var resources: [String: SchemaLocation] = [:]
    /// Plain-name fragments by `documentKey#name`.
    private(set) var anchors: [String: SchemaLocation] = [:]

    /// Adds a document whose retrieval URI is `uri`.
    mutating func addDocument(_ document: JSONValue, index: Int, uri: SchemaURI) {
        let root = SchemaLocation(
            document: index, path: [], base: SchemaLocation.base(of: document, inherited: uri),
            value: document)
        resources[uri.documentKey] = root
        add(root)
    }

    private mutating func add(_ location: SchemaLocation) {
        guard case .object(let members) = location.value else { return }
        if location.value["$ref"] == nil, let id = location.value["$id"]?.stringValue {
            let reference = SchemaURI(id)
            let fragmentOnly =
                reference.scheme == nil && reference.authority == nil && reference.path.isEmpty
                && reference.query == nil
            if !fragmentOnly { resources[location.base.documentKey] = location }
            if let fragment = reference.fragment, !fragment.isEmpty, !fragment.hasPrefix("/") {
                anchors[location.base.documentKey + "#" + fragment] = location
            }
        }
        for member in members {
            switch member.name {
            case "additionalItems", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else":
                add(location.child(member.name, member.value))
            case "items", "allOf", "anyOf", "oneOf":
                if case .array(let items) = member.value {
                    for (position, item) in items.enumerated() {
                        add(location.child(member.name, String(position), item))
                    }
                } else if member.name == "items" {
                    add(location.child(member.name, member.value))
                }
            case "properties", "patternProperties", "definitions", "dependencies":
                if case .object(let entries) = member.value {
                    for entry in entries { add(location.child(member.name, entry.name, entry.value)) }
                }
            default:
                break
            }
        }
    }

    /// The location `reference` (already absolute) points to, or nil.
    func resolve(_ reference: SchemaURI) -> SchemaLocation? {
        let fragment = reference.fragment ?? ""
        guard let decoded = SchemaURI.percentDecoded(fragment) else { return nil }
        if decoded.isEmpty || decoded.hasPrefix("/") {
            guard let resource = resources[reference.documentKey], let tokens = JSONPointer.tokens(decoded) else {
                return nil
            }
            return resource.following(tokens)
        }
        return anchors[reference.documentKey + "#" + fragment]
    }
}
