/// A fast matcher for the simple regular expressions that validation data is made of, such as
/// `^\+421[0-9]{9}$` or `^[\p{L}\p{N} .,:;/()?!'+\-]*$`, so that checking a phone number or a
/// payment reference does not cost an ICU match.
///
/// The subset: an optional leading `^`, a sequence of atoms each optionally followed by a greedy
/// `*`, `+`, `?`, `{n}`, `{n,}` or `{n,m}`, and an optional trailing `$`. An atom is a literal
/// character; `.`; `\d \D \w \W \s \S`; `\p{X}` or `\P{X}` for the general categories L, Lu, Ll,
/// Lt, Lm, Lo, N, Nd, Nl, No, P, S, Z; `\t \n \r \f`; an escaped metacharacter
/// (`\. \- \+ \\ \/ \( \) \[ \] \{ \} \* \? \^ \$ \|`); or a bracket class `[...]` / `[^...]` of
/// those characters and escapes, ranges between characters, and a literal `-` first or last.
/// ``init(_:dialect:)`` returns nil for anything else (groups, alternation, backreferences, lazy
/// or possessive quantifiers, lookarounds, `\b`, inline flags, nested classes, a lone `{`, `}` or
/// `]`, `-` between a class escape and something, more than 63 expanded atoms, ...): the caller
/// then matches with `NSRegularExpression`.
///
/// Matching reads the text's UTF-8 once, a Unicode scalar at a time (ICU matches code points),
/// with a table lookup per ASCII byte and per scalar up to U+024F (accented Latin letters), and
/// `Unicode.Scalar.Properties` only beyond. The pattern becomes a Glushkov automaton of at most 63
/// states kept in one `UInt64`: every match takes time linear in the text, whatever the pattern
/// (`^a*a*a*a*a*b$` against 10,000 `a`s answers at once), and allocates nothing for a native
/// string.
///
/// Where it can differ from ICU: general categories, `\w` and `\s` come from the Swift standard
/// library's Unicode tables, which can be a newer Unicode version than the ICU inside Foundation
/// (Swift 6.3 has Unicode 17, its ICU Unicode 16): characters assigned or recategorised in
/// between can answer differently.
public struct SimplePattern: Sendable {
    /// Which regular-expression language a pattern is read in. The subset is spelt the same in
    /// both; `\d`, `\w` and `$` mean different things.
    public struct Dialect: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// ICU, as `NSRegularExpression` and `java.util.regex` read a pattern: `\d` is `\p{Nd}`,
        /// `\w` is ICU's Unicode word set, and `$` also matches before a final line terminator.
        public static let icu = Dialect(name: "icu")
        /// ECMA-262 as ``ECMARegex`` reads a JSON Schema `pattern`: `\d` is `[0-9]`, `\w` is
        /// `[A-Za-z0-9_]` (their complements too, inside a class as well), `$` matches only at
        /// the end, and `[` inside a class is a literal. `.`, `\s` and `\p{X}` are ICU's, as in
        /// ``ECMARegex``.
        public static let ecma262 = Dialect(name: "ecma262")

        /// The dialect's name, for messages.
        public var description: String { name }
    }

    /// The pattern as written.
    public let pattern: String
    /// The dialect the pattern was read in.
    public let dialect: Dialect

    /// Whether a match must start at the beginning of the text (a leading `^`).
    private let anchoredAtStart: Bool
    /// Whether a match must end at the end of the text (a trailing `$`).
    private let anchoredAtEnd: Bool
    /// Whether `$` also matches before a final line terminator (ICU).
    private let endsBeforeFinalLineTerminator: Bool
    // The automaton. Bit `p` stands for the `p`th expanded atom (`a{2,3}` is `a a a?`); bit
    // `positionCount` for "the whole pattern has matched". A state is the set of atoms that may
    // read the next scalar.
    /// The atoms that may read the first scalar.
    let start: UInt64
    /// The bit that says the pattern has matched.
    let accept: UInt64
    /// Atoms that may read again after reading (`*`, `+`, the last copy of `{n,}`).
    private let repeating: UInt64
    /// Atoms that may be skipped (`?`, `*`, the optional copies of `{n,m}`).
    private let optional: UInt64
    /// For every run of consecutive optional atoms, the bit just after its last atom.
    private let optionalRunSuccessors: UInt64
    /// For every run of consecutive optional atoms, the bit of its last atom.
    private let optionalRunEnds: UInt64
    /// Whether every run of optional atoms is a single atom (`a?`, `[...]*`), which makes the
    /// closure one shift.
    private let optionalRunsAreSingle: Bool
    /// For each ASCII byte, the atoms that accept it.
    let asciiAtoms: [UInt64]
    /// For each scalar from U+0080 to U+024F (Latin-1 Supplement, Latin Extended-A and -B: the
    /// accented letters of European languages), the atoms that accept it.
    private let latinAtoms: [UInt64]
    /// The character sets that may accept a scalar outside ASCII, with the atoms that use each.
    private let nonASCIISets: [(set: ScalarSet, atoms: UInt64)]

    /// Reads `pattern` in `dialect`; nil when the pattern is outside the subset (see the type's
    /// documentation), in which case it should be matched with `NSRegularExpression`.
    ///
    /// A pattern ICU rejects may still be accepted here (none in the subset is known to be):
    /// callers that must report bad patterns compile them with ICU as well.
    /// - Parameters:
    ///   - pattern: the regular expression.
    ///   - dialect: the language it is written in.
    public init?(_ pattern: String, dialect: Dialect) {
        var parser = Parser(pattern, dialect: dialect)
        guard let parsed = parser.parse() else { return nil }
        self.pattern = pattern
        self.dialect = dialect
        anchoredAtStart = parsed.anchoredAtStart
        anchoredAtEnd = parsed.anchoredAtEnd
        endsBeforeFinalLineTerminator = dialect == .icu

        // Expand the counted atoms into at most 63 automaton positions.
        var sets: [ScalarSet] = []
        var positionSets: [Int] = []
        var optional: UInt64 = 0
        var repeating: UInt64 = 0
        for atom in parsed.atoms {
            let copies = atom.max ?? max(atom.min, 1)
            guard positionSets.count + copies <= 63 else { return nil }
            let setIndex: Int
            if let existing = sets.firstIndex(of: atom.set) {
                setIndex = existing
            } else {
                setIndex = sets.count
                sets.append(atom.set)
            }
            for copy in 0..<copies {
                let bit: UInt64 = 1 << UInt64(positionSets.count)
                if copy >= atom.min { optional |= bit }
                if atom.max == nil && copy == copies - 1 { repeating |= bit }
                positionSets.append(setIndex)
            }
        }
        let positionCount = positionSets.count
        var runSuccessors: UInt64 = 0
        var runEnds: UInt64 = 0
        for position in 0..<positionCount
        where optional & (1 << UInt64(position)) != 0
            && optional & (1 << UInt64(position + 1)) == 0
        {
            runEnds |= 1 << UInt64(position)
            runSuccessors |= 1 << UInt64(position + 1)
        }
        self.optional = optional
        self.repeating = repeating
        optionalRunSuccessors = runSuccessors
        optionalRunEnds = runEnds
        optionalRunsAreSingle = optional & (optional << 1) == 0
        accept = 1 << UInt64(positionCount)

        var setAtoms = [UInt64](repeating: 0, count: sets.count)
        for (position, setIndex) in positionSets.enumerated() {
            setAtoms[setIndex] |= 1 << UInt64(position)
        }
        var asciiAtoms = [UInt64](repeating: 0, count: 128)
        for byte in 0..<128 {
            let scalar = Unicode.Scalar(UInt8(byte))
            for (setIndex, set) in sets.enumerated() where set.contains(scalar) {
                asciiAtoms[byte] |= setAtoms[setIndex]
            }
        }
        self.asciiAtoms = asciiAtoms
        let nonASCIISets = sets.indices.filter { !sets[$0].isASCIIOnly }
            .map { (set: sets[$0], atoms: setAtoms[$0]) }
        self.nonASCIISets = nonASCIISets
        latinAtoms = Self.latinScalars.map { value in
            let scalar = Unicode.Scalar(value)!
            return nonASCIISets.reduce(0) { $1.set.contains(scalar) ? $0 | $1.atoms : $0 }
        }
        start = Self.closure(1, optional: optional, runSuccessors: runSuccessors, runEnds: runEnds)
    }

    /// Whether the whole of `text` matches, like Java's `String.matches` (`^` and `$` change
    /// nothing here). In the subset this is also what ICU answers for its first anchored match
    /// covering the whole text, which is how ``CompiledRegex`` asked before.
    /// - Parameter text: the text to match.
    public func matchesWhole(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { matchesWhole(utf8: $0, from: 0, state: start) }
    }

    /// Whether the valid UTF-8 `bytes` from `first` on match, the automaton being in `initial`
    /// before reading them (``WholeMatchAutomaton`` goes on here at a scalar outside ASCII).
    func matchesWhole(utf8 bytes: UnsafeBufferPointer<UInt8>, from first: Int, state initial: UInt64) -> Bool {
        asciiAtoms.withUnsafeBufferPointer { asciiAtoms in
            // The common automaton (every optional run a single atom) in a loop of its own,
            // with its constants in registers: a step per byte then costs about half of what
            // the general step costs.
            if optionalRunsAreSingle {
                let repeating = self.repeating, optional = self.optional
                var state = initial
                var index = first
                while index < bytes.count {
                    let atoms: UInt64
                    let lead = bytes[index]
                    if lead < 0x80 {
                        atoms = asciiAtoms[Int(lead)]
                        index += 1
                    } else {
                        let (found, width) = nonASCIIAtoms(accepting: bytes, at: index)
                        atoms = found
                        index += width
                    }
                    let read = state & atoms
                    if read == 0 { return false }
                    state = Self.stepWithSingleOptionalRuns(read, repeating: repeating, optional: optional)
                }
                return state & accept != 0
            }
            var state = initial
            var index = first
            while index < bytes.count {
                let (atoms, width) = atoms(accepting: bytes, at: index, asciiAtoms: asciiAtoms)
                index += width
                let read = state & atoms
                if read == 0 { return false }
                state = advance(read)
            }
            return state & accept != 0
        }
    }

    /// Whether the pattern matches somewhere in `text`, as a JSON Schema `pattern` must.
    /// - Parameter text: the text to search.
    public func matchesSomewhere(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { matchesSomewhere(utf8: $0) }
    }

    /// Whether the pattern matches somewhere in the text whose UTF-8 is `bytes` (valid UTF-8,
    /// such as the content of a JSON string without escapes): ``matchesSomewhere(_:)`` without
    /// making a `String`.
    /// - Parameter bytes: the text to search.
    func matchesSomewhere(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        asciiAtoms.withUnsafeBufferPointer { asciiAtoms in
            // Unanchored: a new match may start before every scalar.
            let restart = anchoredAtStart ? 0 : start
            var state = start
            var index = 0
            while true {
                if state & accept != 0 {
                    if !anchoredAtEnd || index == bytes.count { return true }
                    if endsBeforeFinalLineTerminator && Self.isFinalLineTerminator(bytes, at: index) {
                        return true
                    }
                }
                if index == bytes.count { return false }
                let (atoms, width) = atoms(accepting: bytes, at: index, asciiAtoms: asciiAtoms)
                index += width
                state = advance(state & atoms) | restart
                if state == 0 { return false }
            }
        }
    }

    /// The atoms that may read next after the atoms in `read` have read a scalar.
    @inline(__always)
    func advance(_ read: UInt64) -> UInt64 {
        if optionalRunsAreSingle {
            return Self.stepWithSingleOptionalRuns(read, repeating: repeating, optional: optional)
        }
        return closure((read << 1) | (read & repeating))
    }

    /// ``advance(_:)`` for an automaton whose optional runs are single atoms, with its constants
    /// passed in (so that a loop can keep them in registers).
    @inline(__always)
    private static func stepWithSingleOptionalRuns(_ read: UInt64, repeating: UInt64, optional: UInt64) -> UInt64 {
        let next = (read << 1) | (read & repeating)
        return next | ((next & optional) << 1)
    }

    /// `candidates` plus every atom reachable from one of them by skipping optional atoms.
    ///
    /// Within a run of optional atoms, every bit from the lowest candidate up to the run's end is
    /// set with one subtraction: for a run's candidates `x` and the bit `t` after the run,
    /// `t - x` is `x`'s two's complement within the run, whose bits above `x`'s lowest bit are
    /// exactly those `x` lacks. The runs are separated by required atoms, so no borrow crosses
    /// from one run into the next.
    @inline(__always)
    private func closure(_ candidates: UInt64) -> UInt64 {
        if optionalRunsAreSingle { return candidates | ((candidates & optional) << 1) }
        return Self.closure(
            candidates, optional: optional,
            runSuccessors: optionalRunSuccessors, runEnds: optionalRunEnds)
    }

    /// ``closure(_:)`` with the automaton's constants passed in (for the initialiser).
    @inline(__always)
    private static func closure(
        _ candidates: UInt64, optional: UInt64,
        runSuccessors: UInt64, runEnds: UInt64
    ) -> UInt64 {
        let skippable = candidates & optional
        let filled = skippable | ((runSuccessors &- skippable) & optional)
        return candidates | filled | ((filled & runEnds) << 1)
    }

    /// The atoms that accept the scalar at `index` in `bytes` (valid UTF-8), and its length in
    /// bytes. (Returning the length rather than moving an `inout` index keeps the index in a
    /// register.)
    @inline(__always)
    private func atoms(
        accepting bytes: UnsafeBufferPointer<UInt8>, at index: Int,
        asciiAtoms: UnsafeBufferPointer<UInt64>
    ) -> (atoms: UInt64, width: Int) {
        let lead = bytes[index]
        if lead < 0x80 { return (asciiAtoms[Int(lead)], 1) }
        return nonASCIIAtoms(accepting: bytes, at: index)
    }

    /// The atoms that accept the scalar outside ASCII at `index` in `bytes`, and its length.
    @inline(never)
    private func nonASCIIAtoms(
        accepting bytes: UnsafeBufferPointer<UInt8>,
        at index: Int
    ) -> (atoms: UInt64, width: Int) {
        let (scalar, width) = Self.decodeNonASCII(bytes, at: index)
        if Self.latinScalars.contains(scalar.value) {
            return (latinAtoms[Int(scalar.value - Self.latinScalars.lowerBound)], width)
        }
        var atoms: UInt64 = 0
        for entry in nonASCIISets where entry.set.contains(scalar) {
            atoms |= entry.atoms
        }
        return (atoms, width)
    }

    /// The scalars ``latinAtoms`` covers.
    private static let latinScalars: Range<UInt32> = 0x80..<0x250

    /// The multi-byte scalar at `index` of valid UTF-8, and its length.
    private static func decodeNonASCII(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(bytes[index])
        let value: UInt32
        let width: Int
        if lead < 0xE0 {
            value = (lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
            width = 2
        } else if lead < 0xF0 {
            value = (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
            width = 3
        } else {
            value =
                (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
            width = 4
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", width)
    }

    /// Whether the bytes from `index` on are exactly one ICU line terminator (`\n`, `\r`,
    /// `\r\n`, U+000B, U+000C, U+0085, U+2028, U+2029), before which ICU's `$` matches.
    private static func isFinalLineTerminator(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let rest = UnsafeBufferPointer(rebasing: bytes[index...])
        switch rest.count {
        case 1:
            // A `\n` after `\r` is the second half of one terminator: `$` does not match between.
            return (0x0A...0x0D).contains(rest[0]) && !(rest[0] == 0x0A && index > 0 && bytes[index - 1] == 0x0D)
        case 2:  // \r\n, U+0085
            return (rest[0] == 0x0D && rest[1] == 0x0A) || (rest[0] == 0xC2 && rest[1] == 0x85)
        case 3:  // U+2028, U+2029
            return rest[0] == 0xE2 && rest[1] == 0x80 && (rest[2] == 0xA8 || rest[2] == 0xA9)
        default:
            return false
        }
    }
}

extension SimplePattern {
    /// A set of Unicode scalars: the union of its terms, complemented for `[^...]`.
    struct ScalarSet: Sendable, Hashable {
        /// What a term tests.
        enum Predicate: Sendable, Hashable {
            /// The scalar's value is in one of the ranges.
            case ranges([ClosedRange<UInt32>])
            /// The scalar's general category is one of ``SimplePattern/ScalarSet/categoryBit(_:)``'s bits.
            case categories(UInt32)
            /// ICU's `\w`: alphabetic, a mark, a decimal digit, a connector, U+200C or U+200D.
            case icuWordCharacter
            /// Unicode white space (ICU's `\s`).
            case whiteSpace
        }

        /// A predicate, or its complement (`\D`, `\P{L}`).
        struct Term: Sendable, Hashable {
            var predicate: Predicate
            var negated: Bool
        }

        var terms: [Term]
        var complemented = false

        /// A set of one term.
        init(_ predicate: Predicate, negated: Bool = false) {
            terms = [Term(predicate: predicate, negated: negated)]
        }

        /// A set of several terms.
        init(terms: [Term], complemented: Bool) {
            self.terms = terms
            self.complemented = complemented
        }

        /// Whether no scalar outside ASCII is in the set.
        var isASCIIOnly: Bool {
            !complemented
                && terms.allSatisfy { term in
                    guard !term.negated, case .ranges(let ranges) = term.predicate else { return false }
                    return ranges.allSatisfy { $0.upperBound < 0x80 }
                }
        }

        /// Whether `scalar` is in the set.
        func contains(_ scalar: Unicode.Scalar) -> Bool {
            terms.contains { $0.predicate.holds(for: scalar) != $0.negated } != complemented
        }

        /// ICU's `.`: anything but a line terminator.
        static let anyButLineTerminator = ScalarSet(.ranges([0x0A...0x0D, 0x85...0x85, 0x2028...0x2029]), negated: true)

        /// The general categories `\p{name}` stands for, as a mask of ``categoryBit(_:)``s; nil
        /// for a name outside the subset.
        static func categories(named name: String) -> UInt32? {
            let letters: [Unicode.GeneralCategory] = [
                .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            ]
            let numbers: [Unicode.GeneralCategory] = [.decimalNumber, .letterNumber, .otherNumber]
            let punctuation: [Unicode.GeneralCategory] = [
                .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                .initialPunctuation, .finalPunctuation, .otherPunctuation,
            ]
            let symbols: [Unicode.GeneralCategory] = [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]
            let separators: [Unicode.GeneralCategory] = [.spaceSeparator, .lineSeparator, .paragraphSeparator]
            let categories: [Unicode.GeneralCategory]
            switch name {
            case "L": categories = letters
            case "Lu": categories = [.uppercaseLetter]
            case "Ll": categories = [.lowercaseLetter]
            case "Lt": categories = [.titlecaseLetter]
            case "Lm": categories = [.modifierLetter]
            case "Lo": categories = [.otherLetter]
            case "N": categories = numbers
            case "Nd": categories = [.decimalNumber]
            case "Nl": categories = [.letterNumber]
            case "No": categories = [.otherNumber]
            case "P": categories = punctuation
            case "S": categories = symbols
            case "Z": categories = separators
            default: return nil
            }
            return categories.reduce(0) { $0 | categoryBit($1) }
        }

        /// A bit of its own for each general category the subset names; 0 for the others.
        static func categoryBit(_ category: Unicode.GeneralCategory) -> UInt32 {
            switch category {
            case .uppercaseLetter: 1 << 0
            case .lowercaseLetter: 1 << 1
            case .titlecaseLetter: 1 << 2
            case .modifierLetter: 1 << 3
            case .otherLetter: 1 << 4
            case .decimalNumber: 1 << 5
            case .letterNumber: 1 << 6
            case .otherNumber: 1 << 7
            case .connectorPunctuation: 1 << 8
            case .dashPunctuation: 1 << 9
            case .openPunctuation: 1 << 10
            case .closePunctuation: 1 << 11
            case .initialPunctuation: 1 << 12
            case .finalPunctuation: 1 << 13
            case .otherPunctuation: 1 << 14
            case .mathSymbol: 1 << 15
            case .currencySymbol: 1 << 16
            case .modifierSymbol: 1 << 17
            case .otherSymbol: 1 << 18
            case .spaceSeparator: 1 << 19
            case .lineSeparator: 1 << 20
            case .paragraphSeparator: 1 << 21
            default: 0
            }
        }
    }
}

extension SimplePattern.ScalarSet.Predicate {
    /// Whether `scalar` satisfies the predicate.
    func holds(for scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .ranges(let ranges):
            return ranges.contains { $0.contains(scalar.value) }
        case .categories(let mask):
            return mask & SimplePattern.ScalarSet.categoryBit(scalar.properties.generalCategory) != 0
        case .icuWordCharacter:
            if scalar.value == 0x200C || scalar.value == 0x200D { return true }
            let properties = scalar.properties
            switch properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
            default: return properties.isAlphabetic
            }
        case .whiteSpace:
            return scalar.properties.isWhitespace
        }
    }
}

extension SimplePattern {
    /// Reads a pattern into counted character sets, or fails for anything outside the subset.
    struct Parser {
        /// One atom and how often it may repeat (`max` nil: without limit).
        struct Atom {
            var set: ScalarSet
            var min: Int
            var max: Int?
        }

        /// A pattern in the subset.
        struct Parsed {
            var anchoredAtStart = false
            var anchoredAtEnd = false
            var atoms: [Atom] = []
        }

        private let scalars: [Unicode.Scalar]
        private let dialect: Dialect
        private var index = 0

        init(_ pattern: String, dialect: Dialect) {
            scalars = Array(pattern.unicodeScalars)
            self.dialect = dialect
        }

        /// The next scalar, if any.
        private var next: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        /// The scalar after the next one, if any.
        private var afterNext: Unicode.Scalar? { index + 1 < scalars.count ? scalars[index + 1] : nil }

        /// The whole pattern, or nil when it is outside the subset.
        mutating func parse() -> Parsed? {
            var parsed = Parsed()
            if next == "^" {
                parsed.anchoredAtStart = true
                index += 1
            }
            while let scalar = next {
                let set: ScalarSet
                switch scalar {
                case "$":
                    guard index == scalars.count - 1 else { return nil }
                    parsed.anchoredAtEnd = true
                    index += 1
                    continue
                case "\\":
                    index += 1
                    guard let escaped = escape() else { return nil }
                    set = escaped
                case "[":
                    index += 1
                    guard let bracketed = bracketClass() else { return nil }
                    set = bracketed
                case ".":
                    index += 1
                    set = .anyButLineTerminator
                case "^", "|", "(", ")", "*", "+", "?", "{", "}", "]":
                    return nil
                default:
                    index += 1
                    set = ScalarSet(.ranges([scalar.value...scalar.value]))
                }
                guard let (min, max) = quantifier() else { return nil }
                parsed.atoms.append(Atom(set: set, min: min, max: max))
            }
            return parsed
        }

        /// The quantifier after an atom, `(1, 1)` when there is none; nil for a malformed, lazy,
        /// possessive or doubled one.
        private mutating func quantifier() -> (Int, Int?)? {
            let bounds: (Int, Int?)
            switch next {
            case "*": bounds = (0, nil)
            case "+": bounds = (1, nil)
            case "?": bounds = (0, 1)
            case "{":
                index += 1
                guard let min = number() else { return nil }
                var max: Int? = min
                if next == "," {
                    index += 1
                    if next == "}" {
                        max = nil
                    } else {
                        guard let upper = number(), upper >= min else { return nil }
                        max = upper
                    }
                }
                guard next == "}" else { return nil }
                bounds = (min, max)
            default:
                return (1, 1)
            }
            index += 1
            switch next {
            case "*", "+", "?", "{": return nil
            default: return bounds
            }
        }

        /// A decimal count of at most four digits.
        private mutating func number() -> Int? {
            var value = 0
            var digits = 0
            while let scalar = next, ("0"..."9").contains(scalar) {
                guard digits < 4 else { return nil }
                value = value * 10 + Int(scalar.value - 0x30)
                digits += 1
                index += 1
            }
            return digits == 0 ? nil : value
        }

        /// The set an escape outside a class stands for (`index` is past the backslash).
        private mutating func escape() -> ScalarSet? {
            if let term = classEscape() { return ScalarSet(terms: [term], complemented: false) }
            guard let literal = escapedLiteral() else { return nil }
            return ScalarSet(.ranges([literal.value...literal.value]))
        }

        /// `\d \D \w \W \s \S \p{X} \P{X}` as a term (`index` is past the backslash), moving past
        /// it; nil, without moving, for any other escape.
        private mutating func classEscape() -> ScalarSet.Term? {
            guard let letter = next else { return nil }
            let ecma = dialect == .ecma262
            let predicate: ScalarSet.Predicate
            switch letter {
            case "d", "D":
                predicate = ecma ? .ranges([0x30...0x39]) : .categories(ScalarSet.categoryBit(.decimalNumber))
            case "w", "W":
                predicate = ecma ? .ranges([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]) : .icuWordCharacter
            case "s", "S":
                predicate = .whiteSpace
            case "p", "P":
                guard afterNext == "{",
                    let close = scalars[(index + 2)...].firstIndex(of: "}"),
                    let mask = ScalarSet.categories(named: String(scalars[(index + 2)..<close].map(Character.init)))
                else { return nil }
                index = close
                predicate = .categories(mask)
            default:
                return nil
            }
            index += 1
            return ScalarSet.Term(predicate: predicate, negated: ("A"..."Z").contains(letter))
        }

        /// The character an escape other than a class escape stands for (`index` is past the
        /// backslash), moving past it; nil for an escape outside the subset.
        private mutating func escapedLiteral() -> Unicode.Scalar? {
            guard let escaped = next else { return nil }
            let literal: Unicode.Scalar
            switch escaped {
            case "t": literal = "\t"
            case "n": literal = "\n"
            case "r": literal = "\r"
            case "f": literal = "\u{0C}"
            case ".", "-", "+", "\\", "/", "(", ")", "[", "]", "{", "}", "*", "?", "^", "$", "|": literal = escaped
            default: return nil
            }
            index += 1
            return literal
        }

        /// An element of a bracket class.
        private enum ClassElement {
            /// `\d`, `\p{L}`, ...
            case term(ScalarSet.Term)
            /// A character, and whether it was escaped.
            case character(Unicode.Scalar, escaped: Bool)
        }

        /// A bracket class (`index` is past the `[`), moving past its `]`.
        private mutating func bracketClass() -> ScalarSet? {
            var complemented = false
            if next == "^" {
                complemented = true
                index += 1
            }
            // `[]...]`, `[^]...]` (ICU: a literal `]`; ECMA-262: an empty class) and ICU's
            // POSIX-style `[:alpha:]`.
            guard next != "]", next != ":" else { return nil }
            let first = index
            var terms: [ScalarSet.Term] = []
            var ranges: [ClosedRange<UInt32>] = []
            while let scalar = next, scalar != "]" {
                guard let element = classElement(isFirst: index == first) else { return nil }
                let isRange = next == "-" && afterNext != nil && afterNext != "]"
                switch element {
                case .term(let term):
                    guard !isRange else { return nil }  // `[\d-z]`: ICU reads a literal `-`
                    terms.append(term)
                case .character(let low, let lowEscaped):
                    guard isRange else {
                        ranges.append(low.value...low.value)
                        continue
                    }
                    index += 1
                    // Not from or to an unescaped `-`: `[--a]` and `[a--]` are ICU errors.
                    guard !(low == "-" && !lowEscaped),
                        case .character(let high, let highEscaped)? = classElement(isFirst: false),
                        !(high == "-" && !highEscaped), low <= high
                    else { return nil }
                    ranges.append(low.value...high.value)
                }
            }
            guard next == "]" else { return nil }  // unterminated
            index += 1
            if !ranges.isEmpty { terms.append(ScalarSet.Term(predicate: .ranges(ranges), negated: false)) }
            return ScalarSet(terms: terms, complemented: complemented)
        }

        /// One element of a class, moving past it; nil for anything outside the subset.
        private mutating func classElement(isFirst: Bool) -> ClassElement? {
            guard let scalar = next else { return nil }
            switch scalar {
            case "\\":
                index += 1
                if let term = classEscape() { return .term(term) }
                return escapedLiteral().map { .character($0, escaped: true) }
            case "[":
                // A nested set in ICU, a literal in ECMA-262.
                guard dialect == .ecma262 else { return nil }
            case "]":
                return nil
            case "-":
                // Only first or last, where it cannot be a range or a set operation.
                guard isFirst || afterNext == "]" else { return nil }
            case "&":
                guard afterNext != "&" else { return nil }  // ICU intersection
            default:
                break
            }
            index += 1
            return .character(scalar, escaped: false)
        }
    }
}
