import PayRPCJSON

/// Compact JSON cut to a length, for a value shown inside one readable line (`payrpc calls`).
///
/// A value that fits is written whole. Otherwise an object or an array keeps the members or items
/// that fit, in order, and writes `...` where the rest was left out (`{"amount":"10.00",...}`);
/// the first one that does not fit is itself shortened when there is room for it
/// (`{"contact":{"fullName":"Jana",...}}`), else only its name is kept (`{"status":...}`). A
/// string keeps its start (`"Pay 12.50 EUR to..."`). Numbers, `true`, `false` and `null` are never
/// cut. The result is at most `limit` characters, except that `{...}` and `[...]` are the least an
/// object or an array shows.
enum ShortJSON {
    /// What stands for what was left out.
    static let ellipsis = "..."
    /// Below this many characters a nested value is not shortened but left out.
    static let smallestPart = 8

    /// `value` as compact JSON of at most `limit` characters.
    static func text(_ value: JSONValue, limit: Int) -> String {
        let whole = value.jsonText
        guard whole.count > limit else { return whole }
        switch value {
        case .string(let string): return shortened(string, limit: limit)
        case .array(let items): return container(items.map { (nil, $0) }, open: "[", close: "]", limit: limit)
        case .object(let members): return container(members.map { ($0.name, $0.value) }, open: "{", close: "}", limit: limit)
        case .null, .bool, .number: return whole
        }
    }

    /// The members (with their names) or items that fit, then `...` and the closing bracket.
    private static func container(
        _ parts: [(name: String?, value: JSONValue)], open: String, close: String, limit: Int
    ) -> String {
        var out = open
        for (index, part) in parts.enumerated() {
            let key = part.name.map { JSONValue.string($0).jsonText + ":" } ?? ""
            let isLast = index == parts.count - 1
            // What must still fit after this part: the closing bracket, and `,...` before it
            // when parts follow (they may yet be left out).
            let after = isLast ? close : "," + ellipsis + close
            let room = limit - out.count - key.count - after.count
            let whole = part.value.jsonText
            if whole.count <= room {
                out += key + whole + (isLast ? "" : ",")
                continue
            }
            if room >= smallestPart, part.value.isCuttable {
                return out + key + text(part.value, limit: room) + after
            }
            let named = key + ellipsis + close
            return out + (named.count <= limit - out.count ? named : ellipsis + close)
        }
        return out + close
    }

    /// A string's start and `...` inside its quotes, as JSON of at most `limit` characters.
    private static func shortened(_ string: String, limit: Int) -> String {
        var out = "\""
        for character in string {
            let escaped = String(JSONValue.string(String(character)).jsonText.dropFirst().dropLast())
            guard out.count + escaped.count + ellipsis.count + 1 <= limit else { break }
            out += escaped
        }
        return out + ellipsis + "\""
    }
}

extension JSONValue {
    /// Whether ``ShortJSON`` can show part of this value (an object, an array, a string).
    fileprivate var isCuttable: Bool {
        switch self {
        case .object, .array, .string: true
        case .null, .bool, .number: false
        }
    }
}
