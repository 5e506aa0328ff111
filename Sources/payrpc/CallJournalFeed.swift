import PayRPCCalls
import PayRPCCore
import PayRPCJSON

/// A profile's call journal read in order by `payrpc calls`: page after page of
/// `sandbox.calls.list` (each page's `next` as the following `cursor`), and, when following,
/// `sandbox.calls.wait` for the first entry after the last page, which wakes on the gateway as
/// soon as one is journalled (no polling here or there).
///
/// The params are the models the gateway decodes (`CallListParams`, `CallWaitParams`), so their
/// members are named once, in PayRPCCalls. A page is read member by member rather than through
/// `CallPage`'s codec, which refuses members it does not know: a newer gateway's pages still list.
struct CallJournalFeed {
    /// How many entries a page asks for (the gateway's default, said explicitly).
    static let pageSize = 100
    /// How long one `sandbox.calls.wait` waits before it answers -32011 and is asked again.
    static let waitMilliseconds = 30_000

    let session: GatewaySession
    /// Only entries of this method.
    let method: String?
    /// Only entries of this kind.
    let kind: CallEntryKind?
    /// Seconds to wait for each answer (a wait's: beyond its own ``waitMilliseconds``).
    let timeout: Double
    /// Where the next page starts: the last page's `next` (nil: the journal's start).
    private(set) var cursor: String?

    /// A feed from the journal's start over `session`, filtered by `method` and `kind`.
    init(session: GatewaySession, method: String?, kind: CallEntryKind?, timeout: Double) {
        self.session = session
        self.method = method
        self.kind = kind
        self.timeout = timeout
    }

    /// The next page after the cursor, of at most `limit` entries (empty: nothing more now);
    /// moves the cursor past it.
    /// - Throws: ``GatewayFailure``.
    mutating func page(limit: Int) throws(GatewayFailure) -> CallJournalPage {
        var params = CallListParams.decoded(from: "{}")
        params.method = method
        params.kind = kind
        params.limit = min(limit, Self.pageSize)
        params.cursor = cursor
        let answer = try session.call(SandboxCallsList.name, JSONValue(encoding: params), within: timeout)
        let result = answer.result
        guard result.kind == .object, let entries = result.member("entries"), entries.kind == .array else {
            throw .unreadable(method: SandboxCallsList.name, reason: "a page without entries")
        }
        if let next = result.member("next")?.string { cursor = next }
        return CallJournalPage(
            answer: answer, entries: Array(entries.arrayElements), more: result.member("more")?.bool ?? false)
    }

    /// Waits until an entry the filter matches comes after the cursor: true when one has, false
    /// when ``waitMilliseconds`` passed first (the gateway's -32011, which only means "ask again").
    /// - Throws: ``GatewayFailure``: any other error, the connection's end, an interruption.
    func waitForMore() throws(GatewayFailure) -> Bool {
        var params = CallWaitParams.decoded(from: #"{"match":{}}"#)
        params.match.method = method
        params.match.kind = kind
        params.after = cursor
        params.timeoutMs = Self.waitMilliseconds
        do {
            _ = try session.call(
                SandboxCallsWait.name, JSONValue(encoding: params),
                within: Double(Self.waitMilliseconds) / 1000 + timeout)
            return true
        } catch .answered(_, let error) where error.code == .callsWaitTimedOut {
            return false
        }
    }
}

/// One page of the journal as the gateway sent it.
struct CallJournalPage {
    /// The answer the entries are on (it keeps them readable).
    let answer: GatewayAnswer
    /// The entries, oldest first, each as the gateway wrote it (`rawText` is its exact JSON).
    let entries: [JSONElement]
    /// Whether more entries were there than the page held.
    let more: Bool
}
