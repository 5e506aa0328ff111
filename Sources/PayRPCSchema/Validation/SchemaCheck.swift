import PayRPCJSON

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
    case enumeration(ConstantValues)
    case constant(ConstantValues)
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

extension SchemaCheck {
    /// Whether the check says what a string looks like (`type`, `pattern`, `format`,
    /// `minLength`, `maxLength`): the checks a named format's words replace (``SchemaWords``).
    var describesAString: Bool {
        switch self {
        case .type, .pattern, .format, .minLength, .maxLength: return true
        default: return false
        }
    }
}

/// The values of an `enum` or a `const`, as elements of a tape this value keeps alive (elements
/// do not keep their tape alive, and these live as long as the compiled schema).
struct ConstantValues: Sendable {
    /// The values, in the schema's order (one for `const`).
    let elements: [JSONElement]
    private let tape: JSONTape?

    /// `values` written and parsed onto a tape of their own.
    init(_ values: [JSONValue]) {
        var writer = JSONWriter()
        JSONValue.array(values).encode(to: &writer)
        guard let tape = try? JSONTape(copying: writer.bytes) else {
            (elements, self.tape) = ([], nil)
            return
        }
        self.tape = tape
        elements = Array(tape.root.arrayElements)
    }
}
