import Foundation

/// JSON Pointer (RFC 6901) tokens: escaping for reports, unescaping for `$ref` fragments.
enum JSONPointer {
    /// One reference token escaped (`~` → `~0`, `/` → `~1`).
    static func escape(_ token: String) -> String {
        guard token.contains("~") || token.contains("/") else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// A pointer made of `tokens`.
    static func pointer(_ tokens: [String]) -> String {
        tokens.map { "/" + escape($0) }.joined()
    }

    /// The tokens of `pointer`, unescaped; nil when it is not a pointer (no leading `/`, or a
    /// `~` not followed by `0` or `1`).
    static func tokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        var result: [String] = []
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var iterator = raw.makeIterator()
            while let character = iterator.next() {
                if character == "~" {
                    switch iterator.next() {
                    case "0": token.append("~")
                    case "1": token.append("/")
                    default: return nil
                    }
                } else {
                    token.append(character)
                }
            }
            result.append(token)
        }
        return result
    }
}
