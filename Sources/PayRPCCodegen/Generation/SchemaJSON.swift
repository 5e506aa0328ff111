/// A JSON value as the generator handles it: tag values parsed from doc comments and the
/// schemas it builds, rendered as JSON text and as Swift `JSONValue` constructor code.
///
/// The generator links `PayRPCJSON` and `PayRPCSchema` (for the formats and checks it compiles
/// into decoders), but a schema it builds holds what `JSONValue` cannot: a reference to a
/// hand-written model's schema, evaluated only when the schema is built
/// (``runtimeReference(_:)``). So it keeps this small value type and parser of its own. Numbers
/// keep their text.
indirect enum SchemaJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([SchemaJSON])
    case object([(String, SchemaJSON)])
    /// The `schemaReference` of a hand-written model, evaluated when the schema is built.
    case runtimeReference(ModelID)

    static func == (lhs: SchemaJSON, rhs: SchemaJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.runtimeReference(let a), .runtimeReference(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// An object whose members are sorted by key, so output is canonical.
    static func sortedObject(_ members: [(String, SchemaJSON)]) -> SchemaJSON {
        .object(members.sorted { $0.0 < $1.0 })
    }

    /// The members, when this is an object.
    var objectMembers: [(String, SchemaJSON)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    // MARK: JSON text

    /// Compact JSON text.
    var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let text): return text
        case .string(let value): return SchemaJSON.quoted(value)
        case .array(let values): return "[" + values.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { SchemaJSON.quoted($0.0) + ":" + $0.1.jsonText }.joined(separator: ",") + "}"
        case .runtimeReference(let id): return "{\"$schemaReference\":" + SchemaJSON.quoted(id.path) + "}"
        }
    }

    /// A JSON string literal for `value`.
    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    // MARK: Swift code

    /// Swift code that builds this value with explicit `JSONValue` constructors (which the type
    /// checker handles in linear time, unlike nested literals), indented for a member at
    /// `indent` spaces.
    /// `module` is the module the code is for: references to its own types are not qualified.
    func swiftExpression(indent: Int, module: String) -> String {
        switch self {
        case .null: return ".null"
        case .bool(let value): return ".bool(\(value))"
        case .number(let text): return ".number(\(SwiftLiteral.string(text)))"
        case .string(let value): return ".string(\(SwiftLiteral.string(value)))"
        case .runtimeReference(let id): return (id.module == module ? id.path : "\(id.module).\(id.path)") + ".schemaReference"
        case .array(let values):
            if values.isEmpty { return ".array([])" }
            if values.allSatisfy(\.isScalar) {
                return ".array([" + values.map { $0.swiftExpression(indent: indent, module: module) }.joined(separator: ", ")
                    + "])"
            }
            let pad = String(repeating: " ", count: indent + 4)
            let items = values.map { pad + $0.swiftExpression(indent: indent + 4, module: module) + ",\n" }.joined()
            return ".array([\n" + items + String(repeating: " ", count: indent) + "])"
        case .object(let members):
            if members.isEmpty { return ".object([])" }
            let pad = String(repeating: " ", count: indent + 4)
            let items = members.map {
                pad
                    + "JSONValue.Member(\(SwiftLiteral.string($0.0)), \($0.1.swiftExpression(indent: indent + 4, module: module))),\n"
            }.joined()
            return ".object([\n" + items + String(repeating: " ", count: indent) + "])"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    // MARK: Parsing

    /// Parses one JSON text (a whole tag value); nil when it is not exactly one JSON value.
    static func parse(_ text: String) -> SchemaJSON? {
        var parser = Parser(bytes: Array(text.utf8))
        guard let value = parser.value() else { return nil }
        parser.skipSpace()
        return parser.index == parser.bytes.count ? value : nil
    }

    /// Whether `text` is a JSON number.
    static func isNumber(_ text: String) -> Bool {
        if case .number? = parse(text) { return true }
        return false
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var depth = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func literal(_ word: String) -> Bool {
            let utf8 = Array(word.utf8)
            guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else { return false }
            index += utf8.count
            return true
        }

        mutating func value() -> SchemaJSON? {
            skipSpace()
            guard index < bytes.count, depth < 64 else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "\""): return string().map { .string($0) }
            case UInt8(ascii: "["):
                index += 1
                depth += 1
                defer { depth -= 1 }
                var values: [SchemaJSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(values)
                }
                while true {
                    guard let element = value() else { return nil }
                    values.append(element)
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    if bytes[index] == UInt8(ascii: "]") {
                        index += 1
                        return .array(values)
                    }
                    return nil
                }
            case UInt8(ascii: "{"):
                index += 1
                depth += 1
                defer { depth -= 1 }
                var members: [(String, SchemaJSON)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    guard let member = value() else { return nil }
                    members.append((key, member))
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    if bytes[index] == UInt8(ascii: "}") {
                        index += 1
                        return .object(members)
                    }
                    return nil
                }
            default: return number()
            }
        }

        mutating func number() -> SchemaJSON? {
            let start = index
            func digits() -> Int {
                let from = index
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
                return index - from
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let intStart = index
            let intDigits = digits()
            guard intDigits > 0, !(intDigits > 1 && bytes[intStart] == UInt8(ascii: "0")) else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return nil }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return nil }
            }
            return .number(String(decoding: bytes[start..<index], as: UTF8.self))
        }

        mutating func string() -> String? {
            index += 1
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                raw.removeAll()
            }
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") {
                    flush()
                    return String(scalars)
                }
                if byte < 0x20 { return nil }
                guard byte == UInt8(ascii: "\\") else {
                    raw.append(byte)
                    continue
                }
                flush()
                guard index < bytes.count else { return nil }
                let code = bytes[index]
                index += 1
                switch code {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard let unit = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(unit) {
                        guard literal("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        guard let scalar = Unicode.Scalar(value) else { return nil }
                        scalars.append(scalar)
                    } else {
                        guard let scalar = Unicode.Scalar(unit) else { return nil }
                        scalars.append(scalar)
                    }
                default: return nil
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4,
                let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
            else { return nil }
            index += 4
            return value
        }
    }
}

/// Swift source literals.
enum SwiftLiteral {
    /// A Swift string literal for `value` (no interpolation can occur: `\` is escaped).
    static func string(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
