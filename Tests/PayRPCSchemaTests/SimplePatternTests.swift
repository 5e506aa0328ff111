import Foundation
@testable import PayRPCSchema
import PayRPCTestSupport
import Testing
import PayRPCCore
import PayRPCSandbox

/// ``SimplePattern`` answers as `NSRegularExpression` does, in both dialects, for the patterns it
/// accepts, and refuses the ones outside its subset.
@Suite("SimplePattern", .longComputation)
struct SimplePatternTests {
    /// Patterns in the subset in both dialects.
    static let patterns: [String] = [
        #"^\+421[0-9]{9}$"#,
        #"^[\p{L}\p{N} .,:;/()?!'+\-]*$"#,
        #"^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$"#,
        #"\d+"#,
        #"^\s*$"#,
        #"[^a-c]+x?"#,
        #"^.{3,5}$"#,
        #"ab*c"#,
        #"\p{Lu}\p{Ll}+"#,
        #"a$"#,
        #"a\n?$"#,
        #"\r$"#,
        #"\S\r?$"#,
        #"^a*$"#,
        #"x?y?z?$"#,
        #"^$"#,
        #"."#,
        #"^.*$"#,
        #"^\w+$"#,
        #"\W"#,
        #"\D\d"#,
        #"[\D]"#,
        #"^[^\W_]+$"#,
        #"^[-a-z0-9.]+$"#,
        #"[a-]"#,
        #"[\[\]\\]"#,
        #"\(\d\)"#,
        #"\P{L}+"#,
        #"^[\p{N}\P{Ll}]{2}$"#,
        #"[^\s]{2,}"#,
        #"\S\s\S"#,
        #"^a*a*b$"#,
        #"[á-ž]+"#,
        #"č.?ň"#,
        #"[\t\n]\r?"#,
        #"^\p{Nd}{1,3}$"#,
        #"\p{Z}"#,
        #"\p{P}\p{S}"#,
        #"x\p{L}{0}y"#,
        #"[\p{Lt}\p{Lm}\p{Lo}\p{Nl}\p{No}]"#,
        #"[&a$]{2}"#,
        #"^[+\--9]+$"#,
        #"a{2,}b{0,2}$"#,
        #"^\.\-\+\\\/\(\)\[\]\{\}\*\?\^\$\|$"#,
    ]

    /// Patterns in the subset only in ECMA-262, where `[` inside a class is a literal.
    static let ecmaOnlyPatterns: [String] = [#"[[a]+"#, #"^[a[]*$"#]

    /// Inputs every pattern is tried on, besides the random ones.
    static let fixedInputs: [String] = [
        "", "+421900123456", "+42190012345", "+421900123456\n", "Invoice 2026-001 for services",
        "Platba (faktúra č. 12/2026)!", "SK3112000000198742637541", "sk3112000000198742637541",
        "abc", "abbbc", "ac", "Ab", "ÁČň", "a\n", "a\r\n", "a\n\n", "a\u{2028}", "a\u{85}", "xyz\n",
        "٣", "12٣", "(7)", "č ň", "čxň", "\t\r", "aab", "aaab\n", "_a_", "中文", "😀", " \n ",
        ".-+\\/()[]{}*?^$|", "a[", "[[a", "ǅ", "Ⅻ½",
    ]

    /// The alphabet random inputs are drawn from.
    static let alphabet: [String] =
        Array("abcxyzABZ0129+-.,:;/()?!'_ $&[]\\\n\r\t").map(String.init)
        + ["á", "č", "ň", "ö", "Ž", "中", "文", "😀", "٣", "\u{2028}", "\u{85}", "\u{A0}"]
        + ["ǅ", "ʰ", "Ⅻ", "½", "€"]

    /// `NSRegularExpression`'s answers, the way ``CompiledRegex`` (whole) and ``ECMARegex``
    /// (somewhere) get them.
    struct Reference {
        let expression: NSRegularExpression

        func matchesWhole(_ text: String) -> Bool {
            let length = text.utf16.count
            let range = expression.rangeOfFirstMatch(
                in: text, options: [.anchored],
                range: NSRange(location: 0, length: length))
            return range.location == 0 && range.length == length
        }

        func matchesSomewhere(_ text: String) -> Bool {
            let range = NSRange(location: 0, length: text.utf16.count)
            return expression.firstMatch(in: text, options: [], range: range) != nil
        }
    }

    /// `count` random strings over ``alphabet``, mostly short.
    static func randomInputs(count: Int, seed: UInt64) -> [String] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let length =
                Int.random(in: 0...3, using: &generator) == 0
                ? Int.random(in: 0...40, using: &generator)
                : Int.random(in: 0...8, using: &generator)
            return (0..<length).map { _ in alphabet.randomElement(using: &generator)! }.joined()
        }
    }

    /// A seed that is the same for a pattern on every run (`hashValue` is not).
    static func seed(_ pattern: String) -> UInt64 {
        pattern.unicodeScalars.reduce(42) { $0 &* 31 &+ UInt64($1.value) }
    }

    /// Records every input (up to five) on which `pattern` answers differently from ICU.
    static func compare(_ pattern: String, dialect: SimplePattern.Dialect) throws {
        let simple = try #require(
            SimplePattern(pattern, dialect: dialect),
            "\(pattern) (\(dialect)) should be in the subset")
        let icuPattern = dialect == .ecma262 ? ECMARegex.translate(pattern) : pattern
        let reference = Reference(expression: try NSRegularExpression(pattern: icuPattern))
        var disagreements = 0
        for input in fixedInputs + randomInputs(count: 800, seed: Self.seed(pattern)) {
            let whole = (simple.matchesWhole(input), reference.matchesWhole(input))
            let somewhere = (simple.matchesSomewhere(input), reference.matchesSomewhere(input))
            if whole.0 != whole.1 || somewhere.0 != somewhere.1 {
                disagreements += 1
                if disagreements <= 5 {
                    Issue.record(
                        """
                        \(dialect) \(pattern.debugDescription) on \(input.debugDescription): \
                        whole \(whole.0) (ICU \(whole.1)), somewhere \(somewhere.0) (ICU \(somewhere.1))
                        """)
                }
            }
        }
    }

    @Test("agrees with NSRegularExpression, ICU dialect", arguments: patterns)
    func agreesWithICU(pattern: String) throws {
        try Self.compare(pattern, dialect: .icu)
    }

    @Test("agrees with ECMARegex's ICU translation, ECMA-262 dialect", arguments: patterns + ecmaOnlyPatterns)
    func agreesWithECMARegex(pattern: String) throws {
        try Self.compare(pattern, dialect: .ecma262)
    }

    @Test("the ECMARegex translation of \\D and \\W inside a class is ASCII, like the fast path")
    func translatesNegatedClassEscapesInsideClasses() throws {
        #expect(ECMARegex.translate(#"[a\D]"#) == "[a[^0-9]]")
        #expect(ECMARegex.translate(#"[^\W_]"#) == "[^[^A-Za-z0-9_]_]")
        let regex = try #require(ECMARegex(#"^[\D]$"#))
        #expect(regex.matches("٣"))
        #expect(!regex.matches("3"))
    }

    /// Outside the subset, in both dialects (the caller falls back to ICU).
    static let outsideSubset: [String] = [
        #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?$"#, "(ab)", "(?:ab)", "a|b", "a|", #"\bword"#, #"\Ba"#,
        "a*?", "a+?", "a??", "a{2}?", "a*+", "a++", "a{2}+", "a**", "(?i)abc", #"(a)\1"#, #"\1"#,
        "a{", "{", "{2}", "a{2", "a{,2}", "a{2,1}", "a{x}", "a{99999}", "}", "]", "*", "+a", "?",
        "^*", "a^", "$a", "a$$", #"\"#, #"\x41"#, #"\u0041"#, #"\Q.\E"#, #"\A"#, #"\z"#, #"\Z"#, #"\v"#,
        #"\e"#, #"\8"#, #"\pL"#, #"\p{l}"#, #"\p{Greek}"#, #"\p{Cc}"#, #"\p{L"#, "[a", "[]a]",
        "[^]a]", "[]", "[^]", "[:alpha:]", "[a&&b]", "[a-c-e]", "[--a]", "[a--]", #"[\d-z]"#,
        #"[a-\d]"#, "[z-a]", #"[\p{L}-z]"#, "[[a]]", "x{64}", ".{1,100}", "a{40}b{40}",
    ]

    @Test("patterns outside the subset are refused", arguments: outsideSubset)
    func refusesPatternOutsideTheSubset(pattern: String) {
        #expect(SimplePattern(pattern, dialect: .icu) == nil)
        #expect(SimplePattern(pattern, dialect: .ecma262) == nil)
    }

    @Test("the empty pattern, which ICU on Linux refuses, matches only the empty text as a whole")
    func emptyPattern() throws {
        let pattern = try #require(SimplePattern("", dialect: .icu))
        #expect(pattern.matchesWhole(""))
        #expect(!pattern.matchesWhole("a"))
        #expect(pattern.matchesSomewhere("a"))
    }

    @Test("a nested class is refused in ICU and a literal [ in ECMA-262")
    func nestedClassDependsOnDialect() {
        #expect(SimplePattern("[[a]", dialect: .icu) == nil)
        #expect(SimplePattern("[[a]", dialect: .ecma262)?.matchesWhole("[") == true)
    }

    @Test("a pathological pattern answers in linear time", arguments: [SimplePattern.Dialect.icu, .ecma262])
    func pathologicalPatternIsLinear(dialect: SimplePattern.Dialect) throws {
        let pattern = try #require(SimplePattern("^a*a*a*a*a*b$", dialect: dialect))
        let run = String(repeating: "a", count: 10_000)
        #expect(!pattern.matchesWhole(run))
        #expect(!pattern.matchesSomewhere(run))
        #expect(pattern.matchesWhole(run + "b"))
        #expect(pattern.matchesSomewhere(run + "b"))
        let unanchored = try #require(SimplePattern("a*a*a*a*a*b", dialect: dialect))
        #expect(!unanchored.matchesSomewhere(run))
    }

    @Test("the Tatra sandbox patterns")
    func tatraPatterns() throws {
        let phone = try #require(SimplePattern(#"^\+421[0-9]{9}$"#, dialect: .icu))
        #expect(phone.matchesWhole("+421900123456"))
        #expect(!phone.matchesWhole("+421900123456\n"))
        #expect(!phone.matchesWhole("+4219001234567"))
        #expect(!phone.matchesWhole("+42190012345٣"))
        let reference = try #require(SimplePattern(#"^[\p{L}\p{N} .,:;/()?!'+\-]*$"#, dialect: .icu))
        #expect(reference.matchesWhole("Invoice 2026-001 for services"))
        #expect(reference.matchesWhole("Platba (faktúra č. 12/2026)!"))
        #expect(!reference.matchesWhole("50 € for you"))
        #expect(!reference.matchesWhole("line\nbreak"))
    }
}
