/// Comparisons whose duration does not depend on where two secrets differ.
enum ConstantTime {
    /// Whether `a` and `b` are equal, looking at every byte of both (lengths are not secret).
    static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<a.count { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
