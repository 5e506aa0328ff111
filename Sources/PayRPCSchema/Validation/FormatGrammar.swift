/// Small exact checkers for the string formats of ``StringFormat``, over UTF-8 bytes.
enum FormatGrammar {
    typealias Bytes = ArraySlice<UInt8>

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    static func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66) }

    /// The value of exactly `count` ASCII digits at the start of `bytes`, consuming them.
    static func number(_ bytes: inout Bytes, digits count: Int) -> Int? {
        guard bytes.count >= count else { return nil }
        var value = 0
        for byte in bytes.prefix(count) {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        bytes.removeFirst(count)
        return value
    }

    static func expect(_ bytes: inout Bytes, _ character: Character) -> Bool {
        guard let first = bytes.first, first == character.asciiValue else { return false }
        bytes.removeFirst()
        return true
    }

    // MARK: RFC 3339 dates and times

    /// `full-date "T" full-time` (`T` and `Z` in either case).
    static func isDateTime(_ bytes: [UInt8]) -> Bool {
        guard let separator = bytes.firstIndex(where: { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") }) else {
            return false
        }
        return isFullDate(bytes[..<separator]) && isFullTime(bytes[(separator + 1)...]) != nil
    }

    /// `YYYY-MM-DD` with a day that exists in that month (leap years included).
    static func isFullDate(_ input: Bytes) -> Bool {
        var bytes = input
        guard let year = number(&bytes, digits: 4), expect(&bytes, "-"),
            let month = number(&bytes, digits: 2), expect(&bytes, "-"),
            let day = number(&bytes, digits: 2), bytes.isEmpty, (1...12).contains(month), day >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= days[month - 1]
    }

    /// `HH:MM:SS[.frac](Z|±HH:MM)`; returns the UTC minute of the day (for the leap second
    /// rule: second 60 only at 23:59 UTC), nil when invalid.
    static func isFullTime(_ input: Bytes) -> Int? {
        var bytes = input
        guard let hour = number(&bytes, digits: 2), expect(&bytes, ":"),
            let minute = number(&bytes, digits: 2), expect(&bytes, ":"),
            let second = number(&bytes, digits: 2), hour <= 23, minute <= 59, second <= 60
        else { return nil }
        if expect(&bytes, ".") {
            let count = bytes.prefix(while: isDigit).count
            guard count > 0 else { return nil }
            bytes.removeFirst(count)
        }
        var offset = 0
        if expect(&bytes, "Z") || expect(&bytes, "z") {
            offset = 0
        } else if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            bytes.removeFirst()
            guard let offsetHour = number(&bytes, digits: 2), expect(&bytes, ":"),
                let offsetMinute = number(&bytes, digits: 2), offsetHour <= 23, offsetMinute <= 59
            else { return nil }
            offset = (offsetHour * 60 + offsetMinute) * (sign == UInt8(ascii: "+") ? 1 : -1)
        } else {
            return nil
        }
        guard bytes.isEmpty else { return nil }
        let utcMinute = ((hour * 60 + minute - offset) % 1440 + 1440) % 1440
        if second == 60 && utcMinute != 23 * 60 + 59 { return nil }
        return utcMinute
    }

    // MARK: Internet names and addresses

    /// RFC 1123 host name: dot-separated labels of 1–63 letters, digits and hyphens, not
    /// starting or ending with a hyphen, at most 253 bytes in all.
    static func isHostname(_ bytes: Bytes) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        for label in bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard !label.isEmpty, label.count <= 63,
                label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-"),
                label.allSatisfy({ isAlpha($0) || isDigit($0) || $0 == UInt8(ascii: "-") })
            else { return false }
        }
        return true
    }

    /// Dotted-quad IPv4: four decimal octets 0–255, no leading zeros.
    static func isIPv4(_ bytes: Bytes) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(isDigit),
                part.count == 1 || part.first != UInt8(ascii: "0")
            else { return false }
            let value = part.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard value <= 255 else { return false }
        }
        return true
    }

    /// RFC 4291 text form: eight groups of 1–4 hex digits, one `::` for a run of zero
    /// groups, optionally ending in a dotted IPv4 address (worth two groups). No zone index.
    static func isIPv6(_ bytes: Bytes) -> Bool {
        guard bytes.count >= 2, bytes.count <= 45 else { return false }
        var groups = 0
        var compressed = false
        var rest = bytes
        if rest.starts(with: [0x3A, 0x3A]) {
            compressed = true
            rest.removeFirst(2)
            if rest.isEmpty { return true }
        } else if rest.first == 0x3A {
            return false
        }
        while true {
            let end = rest.firstIndex(of: 0x3A) ?? rest.endIndex
            let group = rest[rest.startIndex..<end]
            if end == rest.endIndex {
                if group.contains(UInt8(ascii: ".")) {
                    guard isIPv4(group) else { return false }
                    groups += 2
                } else {
                    guard (1...4).contains(group.count), group.allSatisfy(isHex) else { return false }
                    groups += 1
                }
                break
            }
            guard (1...4).contains(group.count), group.allSatisfy(isHex) else { return false }
            groups += 1
            rest = rest[(end + 1)...]
            if rest.first == 0x3A {
                guard !compressed else { return false }
                compressed = true
                rest.removeFirst()
                if rest.isEmpty { break }
            } else if rest.isEmpty {
                return false  // a trailing single colon
            }
        }
        return compressed ? groups <= 7 : groups == 8
    }

    /// `local@domain` (RFC 5321 mailbox): the local part a dot-atom or a quoted string, the
    /// domain a host name or a bracketed IPv4/IPv6 literal.
    static func isEmail(_ bytes: [UInt8]) -> Bool {
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0, at < bytes.count - 1 else { return false }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        guard local.count <= 64 else { return false }
        if local.first == UInt8(ascii: "\"") {
            guard local.count >= 2, local.last == UInt8(ascii: "\"") else { return false }
            var escaped = false
            for byte in local.dropFirst().dropLast() {
                if escaped {
                    escaped = false
                    continue
                }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    continue
                }
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\"") else { return false }
            }
            if escaped { return false }
        } else {
            let atext = Array("!#$%&'*+-/=?^_`{|}~".utf8)
            for atom in local.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
                guard !atom.isEmpty, atom.allSatisfy({ isAlpha($0) || isDigit($0) || atext.contains($0) || $0 >= 0x80 })
                else { return false }
            }
        }
        if domain.first == UInt8(ascii: "[") {
            guard domain.last == UInt8(ascii: "]") else { return false }
            let literal = domain.dropFirst().dropLast()
            let tag = Array("IPv6:".utf8)
            if literal.starts(with: tag) { return isIPv6(literal.dropFirst(tag.count)) }
            return isIPv4(literal)
        }
        return isHostname(domain)
    }

    // MARK: URIs and UUIDs

    /// RFC 3986 URI (with `requireScheme`) or URI reference: a valid scheme when there is
    /// one, only URI characters and well-formed `%XX` escapes, at most one `#`, brackets only
    /// around an IP literal host.
    static func isURI(_ bytes: [UInt8], requireScheme: Bool) -> Bool {
        let firstDelimiter =
            bytes.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? bytes.endIndex
        var rest = bytes[...]
        if let colon = bytes[..<firstDelimiter].firstIndex(of: UInt8(ascii: ":")) {
            let scheme = bytes[..<colon]
            guard let first = scheme.first, isAlpha(first),
                scheme.allSatisfy({ isAlpha($0) || isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
            else { return false }
            rest = bytes[(colon + 1)...]
        } else if requireScheme {
            return false
        }
        var authority: ArraySlice<UInt8> = []
        if rest.starts(with: [0x2F, 0x2F]) {
            let body = rest.dropFirst(2)
            let end =
                body.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
                ?? body.endIndex
            authority = body[..<end]
            rest = body[end...]
            let host = authority.split(separator: UInt8(ascii: "@"), maxSplits: 1, omittingEmptySubsequences: false).last ?? []
            if host.first == UInt8(ascii: "[") {
                guard let close = host.firstIndex(of: UInt8(ascii: "]")) else { return false }
                let literal = host[(host.startIndex + 1)..<close]
                guard isIPv6(literal) || (literal.first == UInt8(ascii: "v") || literal.first == UInt8(ascii: "V")) else {
                    return false
                }
                let after = host[(close + 1)...]
                guard after.isEmpty || (after.first == UInt8(ascii: ":") && after.dropFirst().allSatisfy(isDigit)) else {
                    return false
                }
                authority = authority[..<(authority.endIndex - host.count)]
            } else if let colon = host.lastIndex(of: UInt8(ascii: ":")) {
                guard host[(colon + 1)...].allSatisfy(isDigit) else { return false }
            }
            guard isURIText(authority, allowBrackets: false, allowHash: false) else { return false }
        }
        return isURIText(rest, allowBrackets: false, allowHash: true)
    }

    private static func isURIText(_ bytes: Bytes, allowBrackets: Bool, allowHash: Bool) -> Bool {
        let allowed = Array("-._~!$&'()*+,;=:@/?".utf8)
        var hashes = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex + 0, index + 2 <= bytes.endIndex - 1,
                    isHex(bytes[index + 1]), isHex(bytes[index + 2])
                else { return false }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                hashes += 1
                guard allowHash, hashes == 1 else { return false }
            } else if !(isAlpha(byte) || isDigit(byte) || allowed.contains(byte)) {
                return false
            }
            index += 1
        }
        return true
    }

    /// `8-4-4-4-12` hexadecimal digits.
    static func isUUID(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        for (position, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(position) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else if !isHex(byte) {
                return false
            }
        }
        return true
    }
}
