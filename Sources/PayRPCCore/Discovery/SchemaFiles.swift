import PayRPCJSON
import PayRPCSchema

/// The files of `Schemas/`: `openrpc.json`, `models/<Name>.json` and `methods/<method>.json`,
/// each deterministic (sorted keys, two-space indentation, trailing newline).
public struct SchemaFiles: Sendable {
    /// Path relative to the `Schemas/` folder → file contents.
    public let files: [String: String]

    /// Renders every file for the router's methods.
    public init(builder: OpenRPCBuilder) {
        var files: [String: String] = [:]
        files["openrpc.json"] = builder.document().canonicalText
        let definitions = builder.router.allDefinitions
        for name in definitions.schemas.keys.sorted() {
            let schema = definitions.schemas[name]!
            files["models/\(name).json"] = Self.standalone(schema, title: name, definitions: definitions).canonicalText
        }
        for method in builder.router.methods {
            var members: [JSONValue.Member] = [
                .init("$schema", "http://json-schema.org/draft-07/schema#"),
                .init("title", .string(method.name)),
                .init("description", .string(method.summary)),
                .init("params", method.paramsSchema),
                .init("result", method.resultSchema),
                .init(
                    "errors",
                    .array(
                        method.errors.map { error in
                            var entry: [JSONValue.Member] = [
                                .init("code", .int(error.code)), .init("message", .string(error.message)),
                            ]
                            if let data = error.dataSchema { entry.append(.init("data", data)) }
                            return .object(entry)
                        })),
            ]
            let needed = Self.closure(of: .object(members), in: definitions)
            if !needed.isEmpty {
                members.append(.init("definitions", .object(needed.sorted().map { .init($0, definitions.schemas[$0]!) })))
            }
            files["methods/\(Self.fileName(method.name)).json"] = JSONValue.object(members).canonicalText
        }
        self.files = files
    }

    /// A model's schema as a self-contained draft-07 document.
    static func standalone(_ schema: JSONValue, title: String, definitions: SchemaDefinitions) -> JSONValue {
        guard case .object(var members) = schema else { return schema }
        members.insert(.init("$schema", "http://json-schema.org/draft-07/schema#"), at: 0)
        if !members.contains(where: { $0.name == "title" }) { members.append(.init("title", .string(title))) }
        let needed = closure(of: schema, in: definitions).subtracting([title])
        if !needed.isEmpty {
            members.append(.init("definitions", .object(needed.sorted().map { .init($0, definitions.schemas[$0]!) })))
        }
        return .object(members)
    }

    /// Every definition reachable from `schema` through `#/definitions/` references.
    package static func closure(of schema: JSONValue, in definitions: SchemaDefinitions) -> Set<String> {
        var found: Set<String> = []
        var pending = references(in: schema)
        while let name = pending.popLast() {
            guard !found.contains(name), let target = definitions.schemas[name] else { continue }
            found.insert(name)
            pending.append(contentsOf: references(in: target))
        }
        return found
    }

    static func references(in schema: JSONValue) -> [String] {
        switch schema {
        case .array(let values): return values.flatMap(references)
        case .object(let members):
            return members.flatMap { member -> [String] in
                if member.name == "$ref", let ref = member.value.stringValue, ref.hasPrefix("#/definitions/") {
                    return [String(ref.dropFirst("#/definitions/".count))]
                }
                return references(in: member.value)
            }
        default: return []
        }
    }

    /// A method name as a file name (`$/cancelRequest` → `$_cancelRequest`).
    package static func fileName(_ method: String) -> String {
        method.replacingSlashes()
    }
}

extension String {
    fileprivate func replacingSlashes() -> String {
        String(map { $0 == "/" ? "_" : $0 })
    }
}
