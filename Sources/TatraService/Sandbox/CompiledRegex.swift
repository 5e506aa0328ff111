#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import PayRPCSchema

/// A regular expression of the setup data (ICU syntax, as `java.util.regex` and
/// `NSRegularExpression` read it), compiled once when the sandbox data is loaded.
///
/// Matching is whole-string, like Java's `String.matches`. A pattern in ``SimplePattern``'s subset
/// (both of the sandbox's are) is matched by its deterministic automaton
/// (``WholeMatchAutomaton``, or by ``SimplePattern`` when that would be too big), without ICU;
/// any other by `NSRegularExpression` (``ICUExpression``). Every pattern is compiled with ICU, so that one ICU rejects is an error
/// either way.
final class CompiledRegex: Sendable {
    /// The pattern as written.
    let pattern: String
    private let expression: ICUExpression
    /// The fast matcher, when the pattern is in its subset.
    private let simplePattern: SimplePattern?
    /// The fastest, when the pattern is in the subset and its automaton small (a reference: the
    /// payment path reads it without copying its tables).
    private let automaton: WholeMatchAutomaton?

    /// - Throws: the pattern's compile error.
    init(_ pattern: String) throws {
        self.pattern = pattern
        self.expression = try ICUExpression(pattern)
        self.simplePattern = SimplePattern(pattern, dialect: .icu)
        self.automaton = simplePattern.flatMap(WholeMatchAutomaton.init)
    }

    /// Whether the whole of `text` matches.
    func matchesWhole(_ text: String) -> Bool {
        if let automaton { return automaton.matchesWhole(text) }
        if let simplePattern { return simplePattern.matchesWhole(text) }
        return expression.matchesWhole(text)
    }
}
