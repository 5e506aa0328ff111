/// Any JSON value, owned: for members whose shape is open (`_meta`, error `data` passed
/// through) and for building documents off the hot path.
///
/// Object members keep their order; numbers keep their text, so nothing is lost in a round
/// trip (an integer beyond 2^53 stays exact).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One member of an object.
    public struct Member: Sendable, Hashable {
        public var name: String
        public var value: JSONValue

        public init(_ name: String, _ value: JSONValue) {
            self.name = name
            self.value = value
        }
    }

    /// An integer value.
    public static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// Parses a JSON text.
    /// - Throws: ``JSONParseError``.
    public init(parsing text: String) throws(JSONParseError) {
        let tape = try JSONTape(string: text)
        self = tape.withRoot { JSONValue($0) }
    }

    /// The value a codec writes for `model` (a domain error's sample `data`, for example).
    /// - Precondition: the codec writes one JSON value; generated codecs always do, so a failure
    ///   here is a bug in a hand-written codec and stops the program rather than passing unseen.
    public init(encoding model: some JSONEncodable) {
        var writer = JSONWriter()
        model.encode(to: &writer)
        do {
            self = try JSONTape(copying: writer.bytes).withRoot { JSONValue($0) }
        } catch {
            preconditionFailure("the codec of \(type(of: model)) wrote text that is not one JSON value: \(error)")
        }
    }

    /// The value `text` holds, or nil when it is not one JSON value (for input that may be
    /// anything, where "not JSON" is an answer rather than a failure).
    public init?(parsingIfValid text: String) {
        guard let tape = try? JSONTape(string: text) else { return nil }
        self = tape.withRoot { JSONValue($0) }
    }

    /// Copies an element of a tape into an owned value.
    public init(_ element: JSONElement) {
        switch element.kind {
        case .null: self = .null
        case .bool: self = .bool(element.bool!)
        case .number: self = .number(element.rawText)
        case .string: self = .string(element.string!)
        case .array: self = .array(element.arrayElements.map { JSONValue($0) })
        case .object: self = .object(element.objectMembers.map { Member($0.name.string!, JSONValue($0.value)) })
        }
    }

    /// The value of the first member named `key` of an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == key }?.value
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The text of this value, compact.
    public var jsonText: String {
        var writer = JSONWriter()
        encode(to: &writer)
        return writer.text
    }
}

extension JSONValue: JSONCodable {
    public init(json: JSONElement) throws(JSONDecodingError) {
        self.init(json)
    }

    public func encode(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.null()
        case .bool(let value): writer.bool(value)
        case .number(let text): writer.raw(Array(text.utf8))
        case .string(let value): writer.string(value)
        case .array(let values):
            writer.beginArray()
            for value in values {
                writer.element()
                value.encode(to: &writer)
            }
            writer.endArray()
        case .object(let members):
            writer.beginObject()
            for member in members {
                writer.key(member.name)
                member.value.encode(to: &writer)
            }
            writer.endObject()
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { Member($0.0, $0.1) })
    }
    public init(nilLiteral: ()) { self = .null }
}
