import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A method's params and result schemas as an MCP tool's `inputSchema` and `outputSchema`.
///
/// MCP wants an object at the root of both, and a document that stands alone: the root `$ref`
/// of a payrpc schema is replaced by the model it names, the models it reaches go under `$defs`
/// (the 2020-12 keyword MCP's default dialect reads; draft-07 references resolve the same way),
/// and nothing else changes, so a tool validates exactly what the method's schema validates.
enum MCPToolSchema {
    /// Where the definitions of a tool's schema live, and how references point at them.
    static let definitionsKeyword = "$defs"
    static let referencePrefix = "#/$defs/"

    /// The `inputSchema`: the params model at the root. Params that are one of several objects
    /// (`oneOf`, as `northstar.executeOrder`'s two forms) get `"type": "object"` beside the
    /// `oneOf`, which hosts require and which every form already satisfies.
    /// - Throws: ``RouterBuildError`` when the params are not an object (no method has such params).
    static func input(_ descriptor: MethodDescriptor) throws(RouterBuildError) -> JSONValue {
        let model = OpenRPCBuilder.resolve(descriptor.paramsSchema, in: descriptor.definitions)
        guard case .object(var members) = model else {
            throw RouterBuildError(
                message: "the params of \(descriptor.name) are not an object schema, so they cannot be an MCP tool's input")
        }
        if model["type"] == nil {
            guard model["oneOf"] != nil || model["anyOf"] != nil else {
                throw RouterBuildError(
                    message: "the params of \(descriptor.name) are not an object schema, so they cannot be an MCP tool's input")
            }
            members.insert(.init("type", "object"), at: 0)
        } else if model["type"] != "object" {
            throw RouterBuildError(
                message: "the params of \(descriptor.name) are not an object schema, so they cannot be an MCP tool's input")
        }
        return standalone(.object(members), definitions: descriptor.definitions)
    }

    /// The `outputSchema` and whether it wraps the result: an object result as it is, any other
    /// (a string, an array, null: 38 of the methods) as the member `result` of an object, since
    /// MCP clients of the 2025 revisions reject a whole tool list with one non-object schema.
    static func output(_ descriptor: MethodDescriptor) -> (schema: JSONValue, wrapsResult: Bool) {
        output(descriptor.resultSchema, definitions: descriptor.definitions)
    }

    /// ``output(_:)`` for a result schema and its definitions.
    static func output(_ schema: JSONValue, definitions: SchemaDefinitions) -> (schema: JSONValue, wrapsResult: Bool) {
        let model = OpenRPCBuilder.resolve(schema, in: definitions)
        if model["type"] == "object" {
            return (standalone(model, definitions: definitions), false)
        }
        let wrapper: JSONValue = .object([
            .init("type", "object"),
            .init("properties", .object([.init("result", schema)])),
            .init("required", ["result"]),
            .init("additionalProperties", false),
        ])
        return (standalone(wrapper, definitions: definitions), true)
    }

    /// `schema` with its references rewritten to `$defs` and the definitions it reaches attached.
    static func standalone(_ schema: JSONValue, definitions: SchemaDefinitions) -> JSONValue {
        let rewritten = OpenRPCBuilder.rewriteRefs(schema, from: "#/definitions/", to: referencePrefix)
        guard case .object(var members) = rewritten else { return rewritten }
        let needed = SchemaFiles.closure(of: schema, in: definitions)
        if !needed.isEmpty {
            members.append(
                .init(
                    definitionsKeyword,
                    .object(
                        needed.sorted().map {
                            .init(
                                $0,
                                OpenRPCBuilder.rewriteRefs(definitions.schemas[$0]!, from: "#/definitions/", to: referencePrefix))
                        })))
        }
        return .object(members)
    }
}
