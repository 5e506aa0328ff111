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
/// The table has a row of 256 entries per state, one for every byte value, and each entry is the
/// offset of the next state's row (its number times 256), so that a step is a load, an `or` and a
/// load: no test for a byte outside ASCII (its entry is 0, as the dead state's row is, and only
/// then is the byte looked at), and no multiplication. Four bytes are read per turn of the loop.
/// Those steps cost several times more with a row of 128 entries behind a bounds-checked array
/// and an ASCII test per byte (docs/benchmarks.md).
///
/// Written here rather than taken from a library: the regular-expression engines at hand
/// (`NSRegularExpression`, Swift's `Regex`) interpret the pattern per call, costing several times
/// the whole match; a table of at most ``maximumStates`` rows built from the automaton the
/// project already has is a few dozen lines.
public final class WholeMatchAutomaton: Sendable {
    /// The most states an automaton may have (the table is 512 bytes a state); a pattern that
    /// needs more is matched by ``SimplePattern`` alone.
    public static let maximumStates = 64

    private let pattern: SimplePattern
    /// `table[row | byte]`: the row (state × 256) after reading `byte` in the state of `row`; 0
    /// for the dead state (no match) and for every byte outside ASCII. State 0 is dead, state 1
    /// the start. Written once, in `init`, and only read after (hence `nonisolated(unsafe)`).
    nonisolated(unsafe) private let table: UnsafeMutablePointer<UInt16>
    /// For each state, the position set of ``SimplePattern``'s automaton it stands for.
    private let positions: [UInt64]
    /// Bit `s`: whether a text ending in state `s` matches.
    private let accepting: UInt64

    /// The deterministic automaton of `pattern`; nil when it would have more than
    /// ``maximumStates`` states.
    public init?(_ pattern: SimplePattern) {
        var positions: [UInt64] = [0, pattern.start]
        var transitions = [UInt16](repeating: 0, count: 2 << 8)
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
                    transitions.append(contentsOf: repeatElement(0, count: 256))
                }
                transitions[state << 8 | byte] = UInt16(target << 8)
            }
            state += 1
        }
        self.pattern = pattern
        table = .allocate(capacity: transitions.count)
        table.initialize(from: transitions, count: transitions.count)
        self.positions = positions
        var accepting: UInt64 = 0
        for (state, set) in positions.enumerated() where set & pattern.accept != 0 { accepting |= 1 << UInt64(state) }
        self.accepting = accepting
    }

    deinit {
        table.deallocate()
    }

    /// Whether the whole of `text` matches (what ``SimplePattern/matchesWhole(_:)`` answers).
    /// - Parameter text: the text to match.
    public func matchesWhole(_ text: String) -> Bool {
        if let answer = text.utf8.withContiguousStorageIfAvailable({ matchesWhole(utf8: $0) }) { return answer }
        return pattern.matchesWhole(text)
    }

    /// Whether the whole of the valid UTF-8 `bytes` matches.
    @inline(__always)
    private func matchesWhole(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return accepting & 2 != 0 }
        let table = self.table
        let count = bytes.count
        var row = 1 << 8
        var index = 0
        // Four steps a turn; a step that reaches row 0 leaves with the row it came from.
        while index &+ 4 <= count {
            let first = Int(table[row | Int(base[index])])
            if first == 0 { return stopped(bytes, at: index, row: row) }
            let second = Int(table[first | Int(base[index &+ 1])])
            if second == 0 { return stopped(bytes, at: index &+ 1, row: first) }
            let third = Int(table[second | Int(base[index &+ 2])])
            if third == 0 { return stopped(bytes, at: index &+ 2, row: second) }
            let fourth = Int(table[third | Int(base[index &+ 3])])
            if fourth == 0 { return stopped(bytes, at: index &+ 3, row: third) }
            row = fourth
            index &+= 4
        }
        while index < count {
            let next = Int(table[row | Int(base[index])])
            if next == 0 { return stopped(bytes, at: index, row: row) }
            row = next
            index &+= 1
        }
        return accepting >> UInt64(row >> 8) & 1 != 0
    }

    /// The answer when the step from `row` at `bytes[index]` found no row: no match for an ASCII
    /// byte; for a byte outside ASCII, ``SimplePattern`` goes on from the state's positions.
    private func stopped(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, row: Int) -> Bool {
        guard bytes[index] >= 0x80 else { return false }
        return pattern.matchesWhole(utf8: bytes, from: index, state: positions[row >> 8])
    }
}
