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
    /// How a pattern is matched, the fastest way its form allows.
    private enum Matcher: Sendable {
        /// The pattern is in the subset and its automaton small (a reference: the payment path
        /// reads it without copying its tables).
        case automaton(WholeMatchAutomaton)
        /// In the subset, its automaton too big.
        case simple(SimplePattern)
        /// Outside the subset: ICU.
        case icu(ICUExpression)
    }

    /// The pattern as written.
    let pattern: String
    private let matcher: Matcher

    /// - Throws: the pattern's compile error (a pattern outside the subset that ICU rejects).
    init(_ pattern: String) throws {
        self.pattern = pattern
        if let simple = SimplePattern(pattern, dialect: .icu) {
            matcher = WholeMatchAutomaton(simple).map(Matcher.automaton) ?? .simple(simple)
        } else {
            matcher = .icu(try ICUExpression(pattern))
        }
    }

    /// Whether the whole of `text` matches.
    func matchesWhole(_ text: String) -> Bool {
        switch matcher {
        case .automaton(let automaton): automaton.matchesWhole(text)
        case .simple(let simple): simple.matchesWhole(text)
        case .icu(let expression): expression.matchesWhole(text)
        }
    }
}
