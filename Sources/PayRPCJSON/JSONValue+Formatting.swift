extension JSONValue {
    /// The value as canonical, human-readable text: object keys sorted, two-space indentation,
    /// and a trailing newline, so that a diff of generated files shows exactly what changed.
    public var canonicalText: String {
        var out = ""
        Self.format(self, indent: 0, into: &out)
        out.append("\n")
        return out
    }

    /// The value with every object's members sorted by name (recursively).
    public var sortedKeys: JSONValue {
        switch self {
        case .array(let values): return .array(values.map(\.sortedKeys))
        case .object(let members):
            return .object(
                members.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
                    .map { Member($0.name, $0.value.sortedKeys) })
        default: return self
        }
    }

    private static func format(_ value: JSONValue, indent: Int, into out: inout String) {
        let padding = String(repeating: "  ", count: indent + 1)
        switch value {
        case .array(let values) where !values.isEmpty:
            out.append("[\n")
            for (index, element) in values.enumerated() {
                out.append(padding)
                format(element, indent: indent + 1, into: &out)
                out.append(index == values.count - 1 ? "\n" : ",\n")
            }
            out.append(String(repeating: "  ", count: indent) + "]")
        case .object(let members) where !members.isEmpty:
            out.append("{\n")
            let sorted = members.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            for (index, member) in sorted.enumerated() {
                out.append(padding)
                var key = JSONWriter(capacity: member.name.utf8.count + 2)
                key.string(member.name)
                out.append(key.text)
                out.append(": ")
                format(member.value, indent: indent + 1, into: &out)
                out.append(index == sorted.count - 1 ? "\n" : ",\n")
            }
            out.append(String(repeating: "  ", count: indent) + "}")
        default:
            out.append(value.jsonText)
        }
    }
}
