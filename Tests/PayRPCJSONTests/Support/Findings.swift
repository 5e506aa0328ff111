import Testing

/// The differences a test's comparisons found, recorded as its issues once they end
/// (``compare(_:)``).
struct Findings: Sendable {
    private(set) var texts: [String] = []

    /// Notes one difference.
    mutating func note(_ text: String) { texts.append(text) }
}

/// Runs a test's comparisons and records what they found (the first 20, and how many in all) as
/// its issues: for this target's long CPU-bound comparisons (the tape parser against the
/// reference, the amount scanner against `NSRegularExpression`), whose suites run
/// `.longComputation` so that they do not hold the cooperative pool for minutes under CI's
/// AddressSanitizer. A comparison that broke would otherwise record thousands of issues.
func compare(_ body: (inout Findings) -> Void) {
    var findings = Findings()
    body(&findings)
    for text in findings.texts.prefix(20) { Issue.record(Comment(rawValue: text)) }
    #expect(findings.texts.count <= 20, "\(findings.texts.count) differences in all")
}
