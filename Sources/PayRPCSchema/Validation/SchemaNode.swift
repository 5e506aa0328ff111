import PayRPCJSON

/// The index of a compiled schema node in its ``CompiledSchema``'s node table.
///
/// Subschemas and `$ref` targets are table indices rather than object references, which is
/// how recursive schemas (`{"items": {"$ref": "#"}}`) compile without looping and without
/// reference cycles.
typealias NodeID = Int

/// One compiled (sub)schema: what is left of its JSON after compilation.
enum SchemaNode: Sendable {
    /// `true` or `false`, or an object without any assertion (`{}` is `true`).
    case always(Bool)
    /// `$ref`: validate against another node (draft-07 ignores the `$ref`'s siblings).
    case reference(NodeID)
    /// The keyword checks of a schema object, in a fixed order.
    case checks([SchemaCheck])
}

/// The kinds a `type` keyword allows, as a bit set.
struct JSONTypeSet: OptionSet, Sendable {
    let rawValue: UInt8
    static let null = JSONTypeSet(rawValue: 1)
    static let boolean = JSONTypeSet(rawValue: 2)
    static let object = JSONTypeSet(rawValue: 4)
    static let array = JSONTypeSet(rawValue: 8)
    static let number = JSONTypeSet(rawValue: 16)
    static let integer = JSONTypeSet(rawValue: 32)
    static let string = JSONTypeSet(rawValue: 64)

    /// The set for one draft-07 type name; nil for an unknown name.
    init?(name: String) {
        switch name {
        case "null": self = .null
        case "boolean": self = .boolean
        case "object": self = .object
        case "array": self = .array
        case "number": self = .number
        case "integer": self = .integer
        case "string": self = .string
        default: return nil
        }
    }

    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The type names in the set, for messages.
    var names: [String] {
        let all: [(JSONTypeSet, String)] = [(.null, "null"), (.boolean, "boolean"), (.object, "object"),
                                            (.array, "array"), (.number, "number"), (.integer, "integer"),
                                            (.string, "string")]
        return all.filter { contains($0.0) }.map(\.1)
    }
}

/// A numeric bound (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`), held
/// exactly, with an `Int64` copy for the common integer case.
struct NumberBound: Sendable {
    /// Which side, and whether equality is allowed.
    enum Kind: String, Sendable {
        case minimum, maximum, exclusiveMinimum, exclusiveMaximum
    }

    let kind: Kind
    let value: DecimalNumber
    let integer: Int64?

    init(kind: Kind, value: DecimalNumber) {
        self.kind = kind
        self.value = value
        self.integer = value.int64
    }
}

/// One `dependencies` entry: members that must also be present, or a schema the whole
/// object must match, when the named member is present.
enum SchemaDependency: Sendable {
    case members([String])
    case schema(NodeID)
}

/// The members of an object schema: `properties`, `patternProperties` and
/// `additionalProperties` together, since which of them applies depends on the others.
struct MemberSchemas: Sendable {
    var properties: [(name: String, node: NodeID)] = []
    var patterns: [(regex: ECMARegex, node: NodeID)] = []
    var additional: NodeID?
}

/// One precompiled keyword (or group of keywords that must be evaluated together).
enum SchemaCheck: Sendable {
    // Any kind
    case type(JSONTypeSet)
    case enumeration([JSONElement])
    case constant(JSONElement)
    case allOf([NodeID])
    case anyOf([NodeID])
    case oneOf([NodeID])
    case not(NodeID)
    case conditional(if: NodeID, then: NodeID?, else: NodeID?)
    // Numbers
    case bound(NumberBound)
    case multipleOf(DecimalNumber)
    // Strings
    case minLength(Int)
    case maxLength(Int)
    case pattern(ECMARegex)
    case format(StringFormat)
    // Arrays
    case items(NodeID)
    case tupleItems([NodeID], additional: NodeID?)
    case contains(NodeID)
    case minItems(Int)
    case maxItems(Int)
    case uniqueItems
    // Objects
    case members(MemberSchemas)
    case required([String])
    case minProperties(Int)
    case maxProperties(Int)
    case propertyNames(NodeID)
    case dependencies([(name: String, dependency: SchemaDependency)])
}
