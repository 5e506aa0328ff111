import Foundation

/// A compiled ICU regular expression (`NSRegularExpression`), shared between threads: the schema
/// validator's patterns and the Tatra sandbox's setup regexes both match through it.
public final class ICUExpression: Sendable {
    private let expression: NSRegularExpression

    /// Compiles `pattern` (ICU syntax).
    /// - Throws: ICU's error when it rejects the pattern.
    public init(_ pattern: String) throws {
        expression = try NSRegularExpression(pattern: pattern, options: [])
    }

    /// Whether the pattern matches somewhere in `text`.
    public func matchesSomewhere(_ text: String) -> Bool {
        expression.firstMatch(in: text, options: [], range: NSRange(location: 0, length: text.utf16.count)) != nil
    }

    /// Whether the pattern matches the whole of `text` (as Java's `String.matches`).
    public func matchesWhole(_ text: String) -> Bool {
        let length = text.utf16.count
        // rangeOfFirstMatch: no NSTextCheckingResult to allocate.
        let range = expression.rangeOfFirstMatch(in: text, options: [.anchored], range: NSRange(location: 0, length: length))
        return range.location == 0 && range.length == length
    }
}
