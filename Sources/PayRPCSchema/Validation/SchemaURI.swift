/// URI references as `$id` and `$ref` use them: RFC 3986 parsing, resolution against a base
/// (section 5.2) and the light normalization that lets two spellings of one document meet.
///
/// Foundation's `URL(string:relativeTo:)` mishandles URNs and some relative forms, so this is
/// a small exact implementation of the RFC's algorithm.
struct SchemaURI: Equatable, Sendable {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    /// Splits a URI reference into its five components (RFC 3986 appendix B).
    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"), colon != rest.startIndex,
            rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            rest.first?.isLetter == true
        {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<slash])
            rest = rest[slash...]
        }
        path = String(rest)
    }

    init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// The reference resolved against `base` (RFC 3986 section 5.2.2).
    func resolved(against base: SchemaURI) -> SchemaURI {
        if scheme != nil {
            return SchemaURI(
                scheme: scheme, authority: authority, path: Self.removeDotSegments(path),
                query: query, fragment: fragment)
        }
        if authority != nil {
            return SchemaURI(
                scheme: base.scheme, authority: authority, path: Self.removeDotSegments(path),
                query: query, fragment: fragment)
        }
        if path.isEmpty {
            return SchemaURI(
                scheme: base.scheme, authority: base.authority, path: base.path,
                query: query ?? base.query, fragment: fragment)
        }
        let merged: String
        if path.hasPrefix("/") {
            merged = path
        } else if base.authority != nil && base.path.isEmpty {
            merged = "/" + path
        } else if let slash = base.path.lastIndex(of: "/") {
            merged = base.path[...slash] + path
        } else {
            merged = path
        }
        return SchemaURI(
            scheme: base.scheme, authority: base.authority, path: Self.removeDotSegments(merged),
            query: query, fragment: fragment)
    }

    /// Removes `.` and `..` segments (RFC 3986 section 5.2.4). Paths without a leading `/`
    /// (URNs, `mailto:`) are returned unchanged.
    static func removeDotSegments(_ path: String) -> String {
        guard path.hasPrefix("/"), path.contains(".") else { return path }
        var output: [Substring] = []
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            switch segment {
            case ".": if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default: output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/")
    }

    /// The URI without its fragment, normalized: lowercase scheme and host, and an empty
    /// path of an `http`/`https` URI written as `/` (so `https://a.b` and `https://a.b/` meet).
    var documentKey: String {
        var text = ""
        if let scheme { text += scheme.lowercased() + ":" }
        if let authority {
            text += "//" + authority.lowercased()
        }
        if authority != nil, path.isEmpty, let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https" {
            text += "/"
        } else {
            text += path
        }
        if let query { text += "?" + query }
        return text
    }

    /// The whole URI as text.
    var text: String {
        var result = documentKey
        if let fragment { result += "#" + fragment }
        return result
    }

    /// Decodes `%XX` escapes; nil when an escape is malformed or the bytes are not UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard utf8.count >= 2, let high = hexDigit(utf8.popFirst()!), let low = hexDigit(utf8.popFirst()!) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
