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
/// any other is compiled by `NSRegularExpression` (``ICUExpression``), so one that ICU rejects is
/// an error of the file. The subset is ICU's own syntax (`SimplePatternTests` compiles every
/// pattern it takes with `NSRegularExpression` and compares the answers), so a pattern in it is
/// not compiled by ICU a second time: that compile, the first of a run, set ICU's regular
/// expression data up and cost a tenth of a stdio gateway's start-up (docs/benchmarks.md).
final class CompiledRegex: Sendable {
    /// How a pattern is matched without an automaton.
    private enum Fallback: Sendable {
        /// In the subset (its automaton, if it has one, is faster).
        case simple(SimplePattern)
        /// Outside the subset: ICU.
        case icu(ICUExpression)
    }

    /// The pattern as written.
    let pattern: String
    /// The automaton of a pattern in the subset whose automaton is small: the payment path's case.
    /// A stored property of its own rather than a case of one enum with the others: switching
    /// over such an enum copied the case out and destroyed it again through its outlined value
    /// witnesses on every match (docs/benchmarks.md).
    private let automaton: WholeMatchAutomaton?
    /// How the pattern is matched when it has no automaton.
    private let fallback: Fallback

    /// - Throws: the pattern's compile error (a pattern outside the subset that ICU rejects).
    init(_ pattern: String) throws {
        self.pattern = pattern
        if let simple = SimplePattern(pattern, dialect: .icu) {
            automaton = WholeMatchAutomaton(simple)
            fallback = .simple(simple)
        } else {
            automaton = nil
            fallback = .icu(try ICUExpression(pattern))
        }
    }

    /// Whether the whole of `text` matches.
    func matchesWhole(_ text: String) -> Bool {
        // Called through the optional in place: `if let` bound a copy of the reference, retained
        // and released around the match.
        if let answer = automaton?.matchesWhole(text) { return answer }
        switch fallback {
        case .simple(let simple): return simple.matchesWhole(text)
        case .icu(let expression): return expression.matchesWhole(text)
        }
    }
}
