import PayRPCTestSupport
import Testing

/// The differences a test's comparisons found, recorded as its issues once they end
/// (``compareOffPool(_:)``).
struct Findings: Sendable {
    private(set) var texts: [String] = []

    /// Notes one difference.
    mutating func note(_ text: String) { texts.append(text) }
}

/// Runs a test's comparisons on a thread of their own while its task waits, suspended, and
/// records what they found (the first 20, and how many in all) as its issues: for this target's
/// long CPU-bound comparisons (the tape parser against the reference, the amount scanner against
/// `NSRegularExpression`).
///
/// Swift Testing runs tests in parallel on the cooperative pool, two threads on this machine. Run
/// there, these comparisons held both threads for about 250 s under CI's AddressSanitizer, and
/// every other test's tasks waited behind them: suites of milliseconds finished only then, and
/// store tests that wait 120 s for an `async let` to begin failed. What the thread finds is
/// returned rather than recorded as it goes: an issue belongs to a test through the task that runs
/// it, which a plain thread is not.
func compareOffPool(_ body: @escaping @Sendable (inout Findings) -> Void) async {
    let findings = await EventWait.blocking(timeout: 3600) { () -> Findings in
        var findings = Findings()
        body(&findings)
        return findings
    }
    guard let findings else {
        Issue.record("the comparisons did not end within an hour")
        return
    }
    for text in findings.texts.prefix(20) { Issue.record(Comment(rawValue: text)) }
    #expect(findings.texts.count <= 20, "\(findings.texts.count) differences in all")
}
