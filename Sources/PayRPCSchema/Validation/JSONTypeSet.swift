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
        let all: [(JSONTypeSet, String)] = [
            (.null, "null"), (.boolean, "boolean"), (.object, "object"),
            (.array, "array"), (.number, "number"), (.integer, "integer"),
            (.string, "string"),
        ]
        return all.filter { contains($0.0) }.map(\.1)
    }
}
