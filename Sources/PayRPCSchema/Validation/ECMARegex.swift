import Foundation

/// A `pattern` / `patternProperties` regular expression, compiled once with
/// `NSRegularExpression` (ICU) and shared by every validation.
///
/// JSON Schema says patterns are ECMA-262 regular expressions. ICU's syntax is a superset for
/// most practical patterns; the differences that can change a result are:
/// - `\d`, `\w`, `\s` and `\b` are Unicode-aware in ICU (`\d` matches `٣`), ASCII-only in ECMA-262
///   (`\s` aside, which both treat as Unicode white space, with small differences in the set).
/// - `$` also matches before a final line terminator in ICU; in ECMA-262 (without the `m`
///   flag) only at the very end.
/// - ICU accepts syntax ECMA-262 rejects (possessive quantifiers `a*+`, `\A`, `\Z`, `(?i)`
///   inline flags, `[[:alpha:]]`-style sets); ECMA-262's `\cX` control escapes and
///   `[^]` are not accepted the same way; ECMA-262 named groups `(?<name>)` work in both.
/// - Matching is on UTF-16 code units in both, so astral characters count as two units in
///   `.` and quantifiers in both, as ECMA-262 does without the `u` flag.
/// Patterns are not anchored: a match anywhere in the string counts, as JSON Schema requires.
///
/// `NSRegularExpression` is documented as thread-safe for matching but is not marked
/// `Sendable` on Linux, hence this `@unchecked Sendable` box around an immutable instance.
final class ECMARegex: @unchecked Sendable {
    /// The pattern as written in the schema.
    let pattern: String
    private let expression: NSRegularExpression

    /// Compiles `pattern`; nil when ICU rejects it.
    init?(_ pattern: String) {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: []) else { return nil }
        self.pattern = pattern
        self.expression = expression
    }

    /// Whether the pattern matches somewhere in `text`.
    func matches(_ text: String) -> Bool {
        let range = NSRange(location: 0, length: text.utf16.count)
        return expression.firstMatch(in: text, options: [], range: range) != nil
    }
}
