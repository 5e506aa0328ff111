import Foundation
@testable import PayRPCSchema
import Testing

/// ``WholeMatchAutomaton`` answers as `NSRegularExpression` does for a whole text, for every
/// pattern ``SimplePatternTests`` checks (texts outside ASCII too, where it hands over to
/// ``SimplePattern``), and declines a pattern whose automaton would be too big.
@Suite("WholeMatchAutomaton")
struct WholeMatchAutomatonTests {
    @Test("agrees with NSRegularExpression on whole texts", arguments: SimplePatternTests.patterns)
    func agreesWithICU(pattern: String) throws {
        let simple = try #require(SimplePattern(pattern, dialect: .icu))
        let automaton = try #require(WholeMatchAutomaton(simple), "\(pattern) should have a small automaton")
        let reference = SimplePatternTests.Reference(expression: try NSRegularExpression(pattern: pattern))
        var disagreements = 0
        let inputs =
            SimplePatternTests.fixedInputs
            + SimplePatternTests.randomInputs(count: 800, seed: SimplePatternTests.seed(pattern))
        for input in inputs where automaton.matchesWhole(input) != reference.matchesWhole(input) {
            disagreements += 1
            if disagreements <= 5 {
                Issue.record(
                    "\(pattern.debugDescription) on \(input.debugDescription): ICU says \(!automaton.matchesWhole(input))")
            }
        }
    }

    @Test("the sandbox's patterns: a phone number and a reference, also outside ASCII")
    func sandboxPatterns() throws {
        let phonePattern = try #require(SimplePattern(#"^\+421[0-9]{9}$"#, dialect: .icu))
        let phone = try #require(WholeMatchAutomaton(phonePattern))
        #expect(!phone.matchesWhole("+42190012345"))
        #expect(!phone.matchesWhole("+4219001234567"))
        #expect(!phone.matchesWhole("+421 900123456"))
        #expect(!phone.matchesWhole("+421900123456\u{0663}"))
        #expect(phone.matchesWhole("+421900123456"))
        let referencePattern = try #require(SimplePattern(#"^[\p{L}\p{N} .,:;/()?!'+\-]*$"#, dialect: .icu))
        let reference = try #require(WholeMatchAutomaton(referencePattern))
        #expect(!reference.matchesWhole("Invoice #1"))
        #expect(!reference.matchesWhole("Nováková €"))
        #expect(reference.matchesWhole("Invoice 2026-001 for Nováková"))
        #expect(reference.matchesWhole(""))
    }

    @Test("a pattern whose deterministic automaton needs more states than the limit is declined")
    func declinesLargeAutomaton() throws {
        // The tenth symbol from the end must be an `a`: the automaton remembers the last eleven.
        let simple = try #require(SimplePattern(#"^[ab]*a[ab]{10}$"#, dialect: .icu))
        #expect(WholeMatchAutomaton(simple) == nil)
        #expect(simple.matchesWhole("a" + String(repeating: "b", count: 10)))
    }
}
