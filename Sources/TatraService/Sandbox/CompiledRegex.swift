#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation

/// A regular expression of the setup data (ICU syntax, as `java.util.regex` and
/// `NSRegularExpression` read it), compiled once when the sandbox data is loaded.
///
/// Matching is whole-string, like Java's `String.matches`. `NSRegularExpression` is immutable and
/// documented as safe to share between threads.
final class CompiledRegex: @unchecked Sendable {
    /// The pattern as written.
    let pattern: String
    private let expression: NSRegularExpression

    /// - Throws: the pattern's compile error.
    init(_ pattern: String) throws {
        self.pattern = pattern
        self.expression = try NSRegularExpression(pattern: pattern)
    }

    /// Whether the whole of `text` matches.
    func matchesWhole(_ text: String) -> Bool {
        let length = text.utf16.count
        // rangeOfFirstMatch: no NSTextCheckingResult to allocate on the executePayment path.
        let range = expression.rangeOfFirstMatch(in: text, options: [.anchored],
                                                 range: NSRange(location: 0, length: length))
        return range.location == 0 && range.length == length
    }
}
