/// A model, identified by its module and its name path inside the module.
struct ModelID: Hashable, Comparable, Sendable {
    var module: String
    var path: String

    static func < (lhs: ModelID, rhs: ModelID) -> Bool { (lhs.module, lhs.path) < (rhs.module, rhs.path) }

    /// How code in `module` names the model: its path, qualified by its module when it is another's.
    func swiftName(in module: String) -> String { self.module == module ? path : "\(self.module).\(path)" }
}

/// The JSON shape of a field, resolved from its Swift type.
indirect enum FieldType: Equatable, Sendable {
    /// `amount` is PayRPCJSON's exact `Amount` (a decimal string); `currency` is an ISO 4217 code
    /// (`Currency`).
    case string, bool, int, int64, int32, uint, double, amount, currency, date, url, any
    /// A named format (``NamedFormat``): a `String` with the constraints and words of the
    /// typealias its key (`Module.Name`) names.
    case formatted(String)
    case array(FieldType)
    case dictionary(FieldType)
    case optional(FieldType)
    case model(ModelID)

    /// Whether writing this type needs Foundation (`Date`, `URL`).
    var needsFoundation: Bool {
        switch self {
        case .date, .url: return true
        case .array(let inner), .dictionary(let inner), .optional(let inner): return inner.needsFoundation
        default: return false
        }
    }

    /// The Swift type that holds this JSON shape, as code in `module` spells it (the emitters of
    /// codecs and of checking decoders write the same declarations).
    func swiftSpelling(in module: String) -> String {
        switch self {
        case .string, .formatted: return "String"
        case .bool: return "Bool"
        case .int: return "Int"
        case .int64: return "Int64"
        case .int32: return "Int32"
        case .uint: return "UInt"
        case .double: return "Double"
        case .amount: return "Amount"
        case .currency: return "Currency"
        case .date: return "Date"
        case .url: return "URL"
        case .any: return "JSONValue"
        case .array(let element): return "[\(element.swiftSpelling(in: module))]"
        case .dictionary(let value): return "[String: \(value.swiftSpelling(in: module))]"
        case .optional(let wrapped): return "\(wrapped.swiftSpelling(in: module))?"
        case .model(let id): return id.swiftName(in: module)
        }
    }

    /// The models this type refers to, in order of first appearance.
    var models: [ModelID] {
        switch self {
        case .model(let id): return [id]
        case .array(let inner), .dictionary(let inner), .optional(let inner): return inner.models
        default: return []
        }
    }
}

/// How a model is written on the wire.
enum ModelShape {
    /// A struct: an object with one member per stored property.
    case object
    /// An enum without associated values: one of its raw values, as a string.
    case stringEnum
    /// An enum whose cases each carry one model: that model's object.
    case union
    /// A model that writes its own `init(json:)` (and the other requirements): nothing is
    /// generated for it; fields that use it take its `schemaReference` at run time.
    case handWritten
}

/// What every model is known by before its fields are resolved.
struct ModelHeader {
    var id: ModelID
    var type: ScannedType
    var shape: ModelShape
    /// `<prefix>.<SchemaName>`: the key under `#/definitions/`.
    var definitionName: String
    var access: AccessLevel
}

/// Another member name a field is read from (`- Alias: recepient`): the spelling of another
/// platform's SDK. Written back under the field's own key only.
struct FieldAlias: Equatable {
    /// The member name.
    var key: String
    /// Whether the member carries one element of the (array) field rather than the whole value
    /// (`- Alias: phone (one element)`: Android's single `phone` for iOS's `phones`).
    var isOneElement: Bool
    /// Whose spelling it is (`- Alias: recepient (Android)`), for the schema's words: a missing
    /// member is reported as `missing required member "contact" (or Android's "recepient")`.
    var owner: String? = nil
}

/// One stored property of a struct model, ready to be written.
struct FieldDescription {
    /// The Swift property name (no backticks).
    var name: String
    /// The JSON member name.
    var key: String
    /// The type, without the outer optional.
    var type: FieldType
    var isOptional: Bool
    /// Whether the property has an initial value (then it is filled in when the member is absent).
    var hasInitialValue: Bool
    /// The property's schema.
    var schema: SchemaJSON
    var line: Int
    /// Other member names the field is read from.
    var aliases: [FieldAlias] = []

    var isRequired: Bool { !isOptional && !hasInitialValue }
}

/// One case of a union enum.
struct UnionCase {
    var name: String
    var payload: ModelID
    /// The member whose presence selects this case.
    var discriminator: String
}

/// A model with everything the emitter needs.
struct ModelDescription {
    var header: ModelHeader
    var fields: [FieldDescription] = []
    /// String enums: (case name, raw value).
    var enumValues: [(name: String, value: String)] = []
    var unionCases: [UnionCase] = []
    /// The model's own schema (what `#/definitions/<name>` holds).
    var schema: SchemaJSON = .object([])
    /// `- OtherMembers: ignored`: members the model does not declare are skipped when reading (an
    /// outside API's answers, which carry more than payrpc reads) instead of refused.
    var ignoresOtherMembers = false
}

/// A service's handler protocol, asked for by `- Handlers: Name` on the protocol its methods
/// conform to (`protocol TatraMethod: RPCMethod`): one requirement per method, and the
/// registration that binds each method to its requirement.
struct HandlerProtocolDescription {
    /// The protocol to generate.
    var name: String
    /// The method protocol that asked for it.
    var methodProtocol: String
    var access: AccessLevel
    var methods: [HandledMethod]
    /// Declaration order of the method protocol.
    var order: Int
}

/// One method of a handler protocol.
struct HandledMethod {
    /// The method type (`ExecutePayment`).
    var swiftName: String
    /// The canonical name, when the declaration spells it as a literal (for the doc comment).
    var rpcName: String?
    /// The requirement's name: the type's name with its first word lowercased (`executePayment`).
    var handlerName: String
    /// Whether the method's `traits` list `.runsInline`: a synchronous requirement
    /// registered to answer on the loop thread; otherwise an `async` one run as a task.
    var runsInline: Bool
}

/// An `RPCMethod` or `RPCNotification` and its documentation.
struct MethodDescription {
    var swiftName: String
    var access: AccessLevel
    var summary: String
    var documentation: String
    var order: Int
}
