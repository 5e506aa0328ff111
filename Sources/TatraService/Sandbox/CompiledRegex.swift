#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import PayRPCSchema

/// A regular expression of the setup data (ICU syntax, as `java.util.regex` and
/// `NSRegularExpression` read it), compiled once when the sandbox data is loaded.
///
/// Matching is whole-string, like Java's `String.matches`. A pattern in ``SimplePattern``'s subset
/// (both of the sandbox's are) is matched by it, without ICU; any other by `NSRegularExpression`,
/// (``ICUExpression``). Every pattern is compiled with ICU, so that one ICU rejects is an error
/// either way.
final class CompiledRegex: Sendable {
    /// The pattern as written.
    let pattern: String
    private let expression: ICUExpression
    /// The fast matcher, when the pattern is in its subset.
    private let simplePattern: SimplePattern?

    /// - Throws: the pattern's compile error.
    init(_ pattern: String) throws {
        self.pattern = pattern
        self.expression = try ICUExpression(pattern)
        self.simplePattern = SimplePattern(pattern, dialect: .icu)
    }

    /// Whether the whole of `text` matches.
    func matchesWhole(_ text: String) -> Bool {
        if let simplePattern { return simplePattern.matchesWhole(text) }
        return expression.matchesWhole(text)
    }
}
