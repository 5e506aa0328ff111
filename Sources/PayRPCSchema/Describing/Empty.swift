import PayRPCJSON

/// The params of a method that takes none: absent, `{}` or `[]` on the wire.
public struct NoParams: JSONModel, Equatable {
    @inlinable public init() {}
    public static var fieldOrder: [String] { [] }
    public static var schemaReference: JSONValue { ["type": "object", "additionalProperties": false] }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object || json.kind == .array || json.isNull else {
            throw .expected("an object", found: json)
        }
    }
    public func encode(to writer: inout JSONWriter) { writer.raw("{}") }
}

/// The result of a method that answers nothing but success: `null` on the wire.
public struct NoResult: JSONCodable, JSONSchemaProvider, Sendable, Equatable {
    public init() {}
    public static var schemaReference: JSONValue { ["type": "null"] }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.isNull else { throw .expected("null", found: json) }
    }
    public func encode(to writer: inout JSONWriter) { writer.null() }
}
