#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A type that reads itself from a ``JSONElement`` of the hot-path reader.
///
/// Models get their conformance from `payrpc-codegen`; the primitive types conform here.
public protocol JSONDecodable {
    /// Reads the value.
    /// - Throws: ``JSONDecodingError`` naming the JSON Pointer of the offending value.
    init(json: JSONElement) throws(JSONDecodingError)
}

/// A type that writes itself with a ``JSONWriter``.
public protocol JSONEncodable {
    /// Writes the value at the writer's current position.
    func encode(to writer: inout JSONWriter)
}

/// Both directions.
public typealias JSONCodable = JSONDecodable & JSONEncodable

/// Why a JSON value could not be read into a type, and where.
public struct JSONDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// JSON Pointer (RFC 6901) to the value, relative to where decoding started.
    public var pointer: String
    /// What was expected.
    public var message: String

    public init(_ message: String, pointer: String = "") {
        self.message = message
        self.pointer = pointer
    }

    /// The error seen from the parent: `key` (a member name or an array index) is put in
    /// front of the pointer.
    public func prefixed(_ key: String) -> JSONDecodingError {
        JSONDecodingError(message, pointer: "/" + JSONPointer.escape(key) + pointer)
    }

    /// The error for a value of the wrong kind.
    public static func expected(_ what: String, found element: JSONElement) -> JSONDecodingError {
        JSONDecodingError("expected \(what), found \(element.kind)")
    }

    /// The error for a required member that is absent.
    public static func missing(_ key: String) -> JSONDecodingError {
        JSONDecodingError("missing required member", pointer: "/" + JSONPointer.escape(key))
    }

    public var description: String { pointer.isEmpty ? message : "\(pointer): \(message)" }
}

/// JSON Pointer (RFC 6901) helpers.
public enum JSONPointer {
    /// Escapes one reference token (`~` → `~0`, `/` → `~1`).
    public static func escape(_ token: String) -> String {
        guard token.contains("~") || token.contains("/") else { return token }
        var escaped = ""
        for character in token {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// Unescapes one reference token.
    public static func unescape(_ token: Substring) -> String {
        guard token.contains("~") else { return String(token) }
        var result = ""
        var index = token.startIndex
        while index < token.endIndex {
            let character = token[index]
            let next = token.index(after: index)
            if character == "~", next < token.endIndex, token[next] == "0" || token[next] == "1" {
                result.append(token[next] == "0" ? "~" : "/")
                index = token.index(after: next)
            } else {
                result.append(character)
                index = next
            }
        }
        return result
    }
}

// MARK: - Primitive conformances

extension String: JSONCodable {
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard let value = json.string else { throw .expected("a string", found: json) }
        self = value
    }

    public func encode(to writer: inout JSONWriter) { writer.string(self) }
}

extension Bool: JSONCodable {
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard let value = json.bool else { throw .expected("a boolean", found: json) }
        self = value
    }

    public func encode(to writer: inout JSONWriter) { writer.bool(self) }
}

/// The integer types read a JSON number that is integral and fits, and write it in decimal.
public protocol JSONInteger: FixedWidthInteger, JSONCodable {}

extension JSONInteger {
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard let value = json.int64, let exact = Self(exactly: value) else {
            throw .expected("an integer from \(Self.min) to \(Self.max)", found: json)
        }
        self = exact
    }

    public func encode(to writer: inout JSONWriter) { writer.int(self) }
}

extension Int: JSONInteger {}
extension Int64: JSONInteger {}
extension Int32: JSONInteger {}
extension UInt: JSONInteger {}

extension Double: JSONCodable {
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard let value = json.double else { throw .expected("a number", found: json) }
        self = value
    }

    public func encode(to writer: inout JSONWriter) { writer.double(self) }
}

extension Date: JSONCodable {
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard let text = json.string else { throw .expected("an RFC 3339 date-time string", found: json) }
        guard let date = RFC3339.parse(text) else {
            throw JSONDecodingError("expected an RFC 3339 date-time such as \"2026-01-31T12:00:00Z\"")
        }
        self = date
    }

    public func encode(to writer: inout JSONWriter) { writer.string(RFC3339.format(self)) }
}

extension URL: JSONCodable {
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard let text = json.string else { throw .expected("a URI string", found: json) }
        guard let url = URL(string: text), url.scheme != nil else {
            throw JSONDecodingError("expected an absolute URI")
        }
        self = url
    }

    public func encode(to writer: inout JSONWriter) { writer.string(absoluteString) }
}

extension Array: JSONDecodable where Element: JSONDecodable {
    /// Inlinable, so that each model's arrays are decoded by a specialized copy (the generic one
    /// goes through witness tables for every element).
    @inlinable
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .array else { throw .expected("an array", found: json) }
        var result: [Element] = []
        result.reserveCapacity(json.count)
        var position = 0
        for element in json.arrayElements {
            do {
                result.append(try Element(json: element))
            } catch {
                throw error.prefixed(String(position))
            }
            position += 1
        }
        self = result
    }
}

extension Array: JSONEncodable where Element: JSONEncodable {
    public func encode(to writer: inout JSONWriter) {
        writer.beginArray()
        for element in self {
            writer.element()
            element.encode(to: &writer)
        }
        writer.endArray()
    }
}

extension Dictionary: JSONDecodable where Key == String, Value: JSONDecodable {
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var result: [String: Value] = [:]
        for (name, value) in json.objectMembers {
            let key = name.string ?? ""
            do {
                result[key] = try Value(json: value)
            } catch {
                throw error.prefixed(key)
            }
        }
        self = result
    }
}

extension Dictionary: JSONEncodable where Key == String, Value: JSONEncodable {
    /// Keys are written sorted, so output is deterministic.
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        for key in keys.sorted() {
            writer.key(key)
            self[key]!.encode(to: &writer)
        }
        writer.endObject()
    }
}

extension Optional: JSONDecodable where Wrapped: JSONDecodable {
    @inlinable
    public init(json: JSONElement) throws(JSONDecodingError) {
        self = json.isNull ? nil : try Wrapped(json: json)
    }
}

extension Optional: JSONEncodable where Wrapped: JSONEncodable {
    public func encode(to writer: inout JSONWriter) {
        if let value = self { value.encode(to: &writer) } else { writer.null() }
    }
}
