/// Strict UTF-8 checking (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF).
///
/// Swift's `String(decoding:as:)` repairs bad input with U+FFFD instead of rejecting it, and
/// JSON-RPC requires invalid UTF-8 to be a parse error (-32700), so the reader checks each
/// non-ASCII scalar itself as it scans a string.
public enum UTF8Validation {
    /// Validates the multi-byte scalar that starts at `index` and returns the index after it.
    /// - Throws: ``JSONParseError`` with reason `.invalidUTF8` at `index`.
    @inline(__always)
    static func skipScalar(_ bytes: UnsafeRawBufferPointer, at index: Int) throws(JSONParseError) -> Int {
        let lead = bytes[index]
        let remaining = bytes.count - index
        func continuation(_ offset: Int) -> Bool { bytes[index + offset] & 0xC0 == 0x80 }
        switch lead {
        case 0xC2...0xDF:
            if remaining >= 2, continuation(1) { return index + 2 }
        case 0xE0...0xEF:
            if remaining >= 3, continuation(1), continuation(2) {
                let second = bytes[index + 1]
                if lead == 0xE0 && second < 0xA0 { break }  // overlong
                if lead == 0xED && second > 0x9F { break }  // surrogate
                return index + 3
            }
        case 0xF0...0xF4:
            if remaining >= 4, continuation(1), continuation(2), continuation(3) {
                let second = bytes[index + 1]
                if lead == 0xF0 && second < 0x90 { break }  // overlong
                if lead == 0xF4 && second > 0x8F { break }  // past U+10FFFF
                return index + 4
            }
        default:
            break
        }
        throw JSONParseError(.invalidUTF8, at: index)
    }

    /// Whether all of `bytes` is valid UTF-8.
    public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index < bytes.count {
            if bytes[index] < 0x80 {
                index += 1
            } else {
                do { index = try skipScalar(bytes, at: index) } catch { return false }
            }
        }
        return true
    }
}
