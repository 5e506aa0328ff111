#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON

/// A type that can say what its JSON looks like, as a JSON Schema (draft-07).
///
/// Models get their conformance from `payrpc-codegen`, which reads their Swift declarations;
/// the primitive types conform here. A model's schema lives once, in ``SchemaDefinitions``,
/// under its name; everything that uses it refers to it with `{"$ref": "#/definitions/Name"}`.
public protocol JSONSchemaProvider: SendableMetatype {
    /// The schema to use where a value of this type appears: a `$ref` for models, an inline
    /// schema for primitives and containers.
    static var schemaReference: JSONValue { get }

    /// Adds the definitions that ``schemaReference`` needs (for a model: itself and every model
    /// it refers to) to `definitions`.
    static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions)
}

/// A Swift struct or enum whose codec and schema are generated from its declaration.
public protocol JSONModel: JSONCodable, JSONSchemaProvider, Sendable {
    /// The stored properties' JSON names in declaration order: how params given by position
    /// map onto members.
    static var fieldOrder: [String] { get }
}

/// Named model schemas, each stored once; what `#/definitions/Name` refers to.
public struct SchemaDefinitions: Sendable {
    /// The schemas by model name.
    public private(set) var schemas: [String: JSONValue] = [:]

    public init() {}

    /// Adds a model's schema; returns false (and changes nothing) when it is already there,
    /// which is what stops recursion through models that refer to each other.
    @discardableResult
    public mutating func insert(_ name: String, schema: JSONValue) -> Bool {
        guard schemas[name] == nil else { return false }
        schemas[name] = schema
        return true
    }

    /// Whether a model of that name is defined.
    public func contains(_ name: String) -> Bool { schemas[name] != nil }

    /// Adds every definition of `other`.
    public mutating func merge(_ other: SchemaDefinitions) {
        for (name, schema) in other.schemas where schemas[name] == nil { schemas[name] = schema }
    }
}

extension JSONSchemaProvider {
    /// Primitives have no definitions.
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {}

    /// The schema with every definition it needs, as one self-contained draft-07 document.
    public static var standaloneSchema: JSONValue {
        var definitions = SchemaDefinitions()
        collectSchemaDefinitions(into: &definitions)
        var members: [JSONValue.Member] = [JSONValue.Member("$schema", "http://json-schema.org/draft-07/schema#")]
        if case .object(let own) = schemaReference { members += own } else { return schemaReference }
        if !definitions.schemas.isEmpty {
            members.append(
                .init(
                    "definitions",
                    .object(
                        definitions.schemas.keys.sorted().map {
                            JSONValue.Member($0, definitions.schemas[$0]!)
                        })))
        }
        return .object(members)
    }
}

extension String: JSONSchemaProvider {
    public static var schemaReference: JSONValue { ["type": "string"] }
}

extension UTF8Text: JSONSchemaProvider {
    /// A plain string's: a client cannot tell the two apart.
    public static var schemaReference: JSONValue { String.schemaReference }
}

extension Bool: JSONSchemaProvider {
    public static var schemaReference: JSONValue { ["type": "boolean"] }
}

// Integers carry the range their codec reads (a JSON integer that fits an `Int64`, which
// `JSONInteger` decodes through), so that what a schema accepts the codec reads: the codecs fuzz
// target found a 91-digit integer that the unbounded schema let through.

extension Int: JSONSchemaProvider {
    public static var schemaReference: JSONValue {
        ["type": "integer", "minimum": .int(Int(Int64.min)), "maximum": .int(Int(Int64.max))]
    }
}

extension Int64: JSONSchemaProvider {
    public static var schemaReference: JSONValue { Int.schemaReference }
}

extension Int32: JSONSchemaProvider {
    public static var schemaReference: JSONValue {
        ["type": "integer", "minimum": .int(Int(Int32.min)), "maximum": .int(Int(Int32.max))]
    }
}

extension UInt: JSONSchemaProvider {
    public static var schemaReference: JSONValue { ["type": "integer", "minimum": 0, "maximum": .int(Int(Int64.max))] }
}

extension Double: JSONSchemaProvider {
    public static var schemaReference: JSONValue { ["type": "number"] }
}

extension Amount: JSONSchemaProvider {
    public static var schemaReference: JSONValue {
        [
            "type": "string", "pattern": .string(Amount.decimalPattern),
            FormatWords.keyword: .string(FormatWords.of(summary: Amount.formatSummary, example: Amount.formatExample)),
        ]
    }
}

extension Currency: JSONSchemaProvider {
    public static var schemaReference: JSONValue {
        [
            "type": "string", "pattern": .string(Currency.codePattern),
            FormatWords.keyword: .string(FormatWords.of(summary: Currency.formatSummary, example: Currency.formatExample)),
        ]
    }
}

extension Date: JSONSchemaProvider {
    public static var schemaReference: JSONValue { ["type": "string", "format": "date-time"] }
}

extension URL: JSONSchemaProvider {
    public static var schemaReference: JSONValue { ["type": "string", "format": "uri"] }
}

extension JSONValue: JSONSchemaProvider {
    /// Any JSON value.
    public static var schemaReference: JSONValue { .object([]) }
}

extension Array: JSONSchemaProvider where Element: JSONSchemaProvider {
    public static var schemaReference: JSONValue { ["type": "array", "items": Element.schemaReference] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        Element.collectSchemaDefinitions(into: &definitions)
    }
}

extension Dictionary: JSONSchemaProvider where Key == String, Value: JSONSchemaProvider {
    public static var schemaReference: JSONValue {
        ["type": "object", "additionalProperties": Value.schemaReference]
    }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        Value.collectSchemaDefinitions(into: &definitions)
    }
}

extension Optional: JSONSchemaProvider where Wrapped: JSONSchemaProvider {
    /// Where an optional stands alone (a result that may be null) it is the wrapped schema or
    /// null; as a model member it is simply left out of `required`.
    public static var schemaReference: JSONValue { ["anyOf": [Wrapped.schemaReference, ["type": "null"]]] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        Wrapped.collectSchemaDefinitions(into: &definitions)
    }
}
