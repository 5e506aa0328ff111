import Foundation
import PayRPCJSON

/// A `pattern` / `patternProperties` regular expression, compiled once and shared by every
/// validation.
///
/// A pattern in ``SimplePattern``'s subset (a sequence of character sets with greedy counts, such
/// as `^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`) is matched by it, in linear time and without ICU; the
/// decimal pattern every money field uses by a hand-written check; any other pattern by
/// `NSRegularExpression` (ICU). The pattern is compiled with ICU in every case, so that a pattern
/// ICU rejects is still an error, and the three give the same answers (see ``SimplePattern`` for
/// the Unicode-version caveat).
///
/// JSON Schema says patterns are ECMA-262 regular expressions. ICU's syntax is a superset for
/// most practical patterns. Before compiling, the pattern is translated where ICU would give a
/// different answer: `\d`, `\D`, `\w`, `\W` become the ASCII classes ECMA-262 means, inside a
/// class too (ICU's are Unicode-aware: its `\d` matches `٣`); `$` outside a class becomes `\z`
/// (ICU's `$` also matches before a final line terminator; ECMA-262's, without the `m` flag, only
/// at the end); and `[` inside a class is escaped (a literal in ECMA-262, a nested set in ICU).
/// The differences that remain:
/// - `\b`/`\B` use Unicode word characters in ICU, ASCII ones in ECMA-262; the `\s` sets differ
///   slightly (both are Unicode white space).
/// - ICU matches code points: `.` and `[^a]` consume a whole surrogate pair, so `^.$` matches
///   `"💩"`, which ECMA-262 without the `u` flag does not (it sees two UTF-16 code units).
/// - `\p{L}` is a Unicode property class here, as with ECMA-262's `u` flag (without it,
///   ECMA-262 reads `\p` as the letter `p`).
/// - ICU accepts syntax that ECMA-262 rejects (possessive quantifiers `a*+`, `\A`, `\Z`,
///   inline flags `(?i)`), and rejects some that ECMA-262 accepts (`[^]`, a lone `{`): such a
///   pattern is a compile error here.
/// Patterns are not anchored: a match anywhere in the string counts, as JSON Schema requires.
final class ECMARegex: Sendable {
    /// The pattern as written in the schema.
    let pattern: String
    private let expression: ICUExpression
    /// The fast matcher, when the pattern is in its subset (and is not the decimal pattern).
    private let simplePattern: SimplePattern?
    /// A hand-written matcher for a pattern every money field uses (``Amount/decimalPattern``),
    /// a tenth of an ICU match's cost on the hot path.
    private let isDecimalPattern: Bool

    /// Compiles `pattern`; nil when ICU rejects it.
    init?(_ pattern: String) {
        guard let expression = try? ICUExpression(Self.translate(pattern)) else {
            return nil
        }
        self.pattern = pattern
        self.expression = expression
        self.isDecimalPattern = pattern == Amount.decimalPattern
        self.simplePattern = isDecimalPattern ? nil : SimplePattern(pattern, dialect: .ecma262)
    }

    /// Whether the pattern matches somewhere in `text`: with the decimal check, ``SimplePattern``
    /// or ICU, whichever applies.
    func matches(_ text: String) -> Bool {
        if isDecimalPattern { return Amount.isDecimalText(text) }
        if let simplePattern { return simplePattern.matchesSomewhere(text) }
        return expression.matchesSomewhere(text)
    }

    /// Whether the pattern matches somewhere in a JSON string value: ``matches(_:)`` on its text,
    /// read from the tape's bytes without making a `String` when it has no escapes and the
    /// decimal check or ``SimplePattern`` applies (the tape's strings are valid UTF-8).
    func matches(stringValue value: JSONElement) -> Bool {
        guard !value.hasEscapes, let content = value.stringContentBytes else { return matches(value.string ?? "") }
        if isDecimalPattern { return Amount.isDecimalText(utf8: content) }
        if let simplePattern { return simplePattern.matchesSomewhere(utf8: content.assumingMemoryBound(to: UInt8.self)) }
        return matches(String(decoding: content, as: UTF8.self))
    }

    /// The ICU spelling of an ECMA-262 pattern (see the type's documentation).
    static func translate(_ pattern: String) -> String {
        var output = ""
        var inClass = false
        var characters = pattern.makeIterator()
        while let character = characters.next() {
            switch character {
            case "\\":
                guard let escaped = characters.next() else {
                    output.append(character)
                    break
                }
                switch escaped {
                case "d": output += inClass ? "0-9" : "[0-9]"
                case "w": output += inClass ? "A-Za-z0-9_" : "[A-Za-z0-9_]"
                // Inside a class, a nested ICU set: `[a\D]` is `[a[^0-9]]`.
                case "D": output += "[^0-9]"
                case "W": output += "[^A-Za-z0-9_]"
                default:
                    output.append(character)
                    output.append(escaped)
                }
            case "[" where !inClass:
                inClass = true
                output.append(character)
            case "[":  // literal inside an ECMA-262 class; ICU would open a nested set
                output += "\\["
            case "]" where inClass:
                inClass = false
                output.append(character)
            case "$" where !inClass:
                output += "\\z"
            default:
                output.append(character)
            }
        }
        return output
    }
}
