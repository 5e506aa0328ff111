/// Finds the top-level members `id`, `result`, `error` (and its `code`) and `method` of a response line
/// (one object, or an array of objects for a batch) in one pass over the bytes, without building any
/// value.
///
/// The load generator must cost less than the server it measures (about 1–2 µs per request), so it does
/// not parse responses: it walks the structure, skipping strings and nested values, and reads only the
/// integer ids it generated itself.
enum ResponseScanner {
    /// Scans `line` (without its newline) and appends one ``ScannedResponse`` per object to `out`.
    /// - Returns: false when the line is not a JSON object or an array of objects.
    static func scan(_ line: UnsafeRawBufferPointer, into out: inout [ScannedResponse]) -> Bool {
        let bytes = line.bindMemory(to: UInt8.self)
        var i = skipSpace(bytes, 0)
        guard i < bytes.count else { return false }
        if bytes[i] == UInt8(ascii: "[") {
            i = skipSpace(bytes, i + 1)
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { return true }
            while i < bytes.count {
                var response = ScannedResponse()
                guard let end = scanObject(bytes, i, &response) else { return false }
                out.append(response)
                i = skipSpace(bytes, end)
                guard i < bytes.count else { return false }
                if bytes[i] == UInt8(ascii: "]") { return true }
                guard bytes[i] == UInt8(ascii: ",") else { return false }
                i = skipSpace(bytes, i + 1)
            }
            return false
        }
        var response = ScannedResponse()
        guard scanObject(bytes, i, &response) != nil else { return false }
        out.append(response)
        return true
    }

    /// Finds the byte range of the value of the top-level `"id"` member of one request object (for
    /// request templates). Returns nil when there is none or the line is not an object.
    static func idValueRange(_ line: UnsafeRawBufferPointer) -> Range<Int>? {
        let bytes = line.bindMemory(to: UInt8.self)
        var i = skipSpace(bytes, 0)
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
        i = skipSpace(bytes, i + 1)
        while i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
            guard let keyEnd = skipString(bytes, i) else { return nil }
            let isID = keyEnd - i == 4 && bytes[i + 1] == UInt8(ascii: "i") && bytes[i + 2] == UInt8(ascii: "d")
            i = skipSpace(bytes, keyEnd)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            i = skipSpace(bytes, i + 1)
            guard let valueEnd = skipValue(bytes, i) else { return nil }
            if isID { return i..<valueEnd }
            i = skipSpace(bytes, valueEnd)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { return nil }
            i = skipSpace(bytes, i + 1)
        }
        return nil
    }

    /// Scans the object starting at `start` (which must be `{`); returns the index after its `}`.
    private static func scanObject(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ response: inout ScannedResponse
    ) -> Int? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        var i = skipSpace(bytes, start + 1)
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { return i + 1 }
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "\""), let keyEnd = skipString(bytes, i) else { return nil }
            let key = Key(bytes, from: i + 1, to: keyEnd - 1)
            i = skipSpace(bytes, keyEnd)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            i = skipSpace(bytes, i + 1)
            guard i < bytes.count else { return nil }
            switch key {
            case .id:
                response.hasID = true
                response.id = readInteger(bytes, i)
            case .result: response.hasResult = true
            case .error:
                response.hasError = true
                response.errorCode = errorCode(bytes, i)
            case .method: response.hasMethod = true
            case .other: break
            }
            guard let valueEnd = skipValue(bytes, i) else { return nil }
            i = skipSpace(bytes, valueEnd)
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: "}") { return i + 1 }
            guard bytes[i] == UInt8(ascii: ",") else { return nil }
            i = skipSpace(bytes, i + 1)
        }
        return nil
    }

    private enum Key {
        case id, result, error, method, other

        init(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) {
            switch to - from {
            case 2 where bytes[from] == UInt8(ascii: "i") && bytes[from + 1] == UInt8(ascii: "d"):
                self = .id
            case 5 where Key.matches(bytes, from, "error"): self = .error
            case 6 where Key.matches(bytes, from, "result"): self = .result
            case 6 where Key.matches(bytes, from, "method"): self = .method
            default: self = .other
            }
        }

        static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ word: StaticString) -> Bool {
            let w = word.utf8Start
            for k in 0..<word.utf8CodeUnitCount where bytes[from + k] != w[k] { return false }
            return true
        }
    }

    /// The integer `code` member of the error object at `start`; nil when there is none.
    private static func errorCode(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int64? {
        guard bytes[start] == UInt8(ascii: "{") else { return nil }
        var i = skipSpace(bytes, start + 1)
        while i < bytes.count, bytes[i] == UInt8(ascii: "\""), let keyEnd = skipString(bytes, i) {
            let isCode = keyEnd - i == 6 && Key.matches(bytes, i + 1, "code")
            i = skipSpace(bytes, keyEnd)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            i = skipSpace(bytes, i + 1)
            if isCode {
                guard i < bytes.count else { return nil }
                let negative = bytes[i] == UInt8(ascii: "-")
                guard let magnitude = readInteger(bytes, negative ? i + 1 : i), magnitude <= UInt64(Int64.max) else {
                    return nil
                }
                return negative ? -Int64(magnitude) : Int64(magnitude)
            }
            guard let valueEnd = skipValue(bytes, i) else { return nil }
            i = skipSpace(bytes, valueEnd)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { return nil }
            i = skipSpace(bytes, i + 1)
        }
        return nil
    }

    /// A non-negative integer of at most 19 digits at `i`, followed by a delimiter; else nil.
    @inline(__always)
    private static func readInteger(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> UInt64? {
        var i = start
        var value: UInt64 = 0
        while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
            guard i - start < 19 else { return nil }
            value = value &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
            i += 1
        }
        guard i > start, i < bytes.count else { return nil }
        switch bytes[i] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
            return value
        default:
            return nil
        }
    }

    @inline(__always)
    private static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var i = start
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): i += 1
            default: return i
            }
        }
        return i
    }

    /// `start` is at `"`; returns the index after the closing quote.
    @inline(__always)
    private static func skipString(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        var i = start + 1
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""): return i + 1
            case UInt8(ascii: "\\"): i += 2
            default: i += 1
            }
        }
        return nil
    }

    /// Skips one JSON value of any kind; returns the index after it.
    private static func skipValue(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return skipString(bytes, start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = start
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    guard let end = skipString(bytes, i) else { return nil }
                    i = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default:
                    break
                }
                i += 1
            }
            return nil
        default:
            var i = start
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "),
                    UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                    return i > start ? i : nil
                default:
                    i += 1
                }
            }
            return i > start ? i : nil
        }
    }
}
