/// The sandbox's PIN, kept so that it never shows up in a log or a description: printing it gives
/// `****`, and comparing takes the same time wherever the first difference is.
struct SandboxPIN: Sendable, CustomStringConvertible {
    private let digits: [UInt8]

    init(_ pin: String) { digits = Array(pin.utf8) }

    /// Whether `candidate` is the PIN (constant time for candidates of the PIN's length).
    func accepts(_ candidate: String) -> Bool {
        let bytes = Array(candidate.utf8)
        guard bytes.count == digits.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(bytes, digits) { difference |= a ^ b }
        return difference == 0
    }

    var description: String { "****" }
}
