/// A ``SimplePattern`` made deterministic when it is loaded, for matching whole texts on a hot
/// path: `tatra.executePayment` checks the recipient's phone number and the payment reference
/// against the sandbox's two patterns on every call.
///
/// The states are the sets of positions ``SimplePattern``'s bit-parallel automaton can be in
/// after reading ASCII bytes (the subset construction, from the pattern's own position
/// automaton: nothing is written by hand per pattern, and a pattern the sandbox data changes is
/// compiled the same way), so reading an ASCII byte is one table lookup instead of the
/// bit-parallel step's masks and shifts. A scalar outside ASCII hands the state's position set
/// back to ``SimplePattern``, which goes on from there. The automaton is not minimised: the
/// sandbox's patterns (`^\+421[0-9]{9}$`, a class repeated) have no two equivalent states to
/// merge.
///
/// Written here rather than taken from a library: the regular-expression engines at hand
/// (`NSRegularExpression`, Swift's `Regex`) interpret the pattern per call, costing several times
/// the whole match; a table of at most ``maximumStates`` rows built from the automaton the
/// project already has is a few dozen lines.
public final class WholeMatchAutomaton: Sendable {
    /// The most states an automaton may have (the table is 128 bytes a state); a pattern that
    /// needs more is matched by ``SimplePattern`` alone.
    public static let maximumStates = 64

    private let pattern: SimplePattern
    /// `transitions[state << 7 | byte]`: the state after reading the ASCII `byte`; state 0 is
    /// dead (no match), state 1 the start.
    private let transitions: [UInt8]
    /// For each state, the position set of ``SimplePattern``'s automaton it stands for.
    private let positions: [UInt64]
    /// For each state, whether a text ending there matches.
    private let accepting: [Bool]

    /// The deterministic automaton of `pattern`; nil when it would have more than
    /// ``maximumStates`` states.
    public init?(_ pattern: SimplePattern) {
        var positions: [UInt64] = [0, pattern.start]
        var transitions = [UInt8](repeating: 0, count: 2 << 7)
        var state = 1
        while state < positions.count {
            let set = positions[state]
            for byte in 0..<128 {
                let read = set & pattern.asciiAtoms[byte]
                guard read != 0 else { continue }
                let next = pattern.advance(read)
                let target: Int
                if let known = positions.firstIndex(of: next) {
                    target = known
                } else {
                    guard positions.count < Self.maximumStates else { return nil }
                    target = positions.count
                    positions.append(next)
                    transitions.append(contentsOf: repeatElement(0, count: 128))
                }
                transitions[state << 7 | byte] = UInt8(target)
            }
            state += 1
        }
        self.pattern = pattern
        self.transitions = transitions
        self.positions = positions
        accepting = positions.map { $0 & pattern.accept != 0 }
    }

    /// Whether the whole of `text` matches (what ``SimplePattern/matchesWhole(_:)`` answers).
    /// - Parameter text: the text to match.
    public func matchesWhole(_ text: String) -> Bool {
        if let answer = text.utf8.withContiguousStorageIfAvailable({ matchesWhole(utf8: $0) }) { return answer }
        return pattern.matchesWhole(text)
    }

    /// Whether the whole of the valid UTF-8 `bytes` matches.
    private func matchesWhole(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        transitions.withUnsafeBufferPointer { table in
            var state = 1
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x80 { return pattern.matchesWhole(utf8: bytes, from: index, state: positions[state]) }
                state = Int(table[state << 7 | Int(byte)])
                if state == 0 { return false }
                index += 1
            }
            return accepting[state]
        }
    }
}
