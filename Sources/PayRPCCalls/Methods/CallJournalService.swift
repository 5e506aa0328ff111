#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The JSON-RPC face of the call journal: `sandbox.calls.list`, `count`, `find`, `verify`, `wait`
/// and `clear`, each on the caller's profile only (a token's connections name only its profiles).
public struct CallJournalService: CallJournalHandlers {
    /// The journal read (nil: the gateway keeps none, `--no-call-journal`).
    let calls: CallJournal?
    /// The router the matches' methods are checked against.
    let router: @Sendable () -> Router?

    /// The methods over `journal` (nil: each answers that the journal is off); `router` gives the
    /// gateway's router once it is built.
    public init(journal: CallJournal?, router: @escaping @Sendable () -> Router?) {
        self.calls = journal
        self.router = router
    }

    /// The journal, or the error that says it is off.
    private var journal: CallJournal {
        get throws(RPCError) {
            guard let calls else {
                throw RPCError(
                    .sandboxOnly, "Call journal off",
                    data: ["detail": .string("this gateway runs with --no-call-journal: it records no calls")])
            }
            return calls
        }
    }

    /// `sandbox.calls.list`.
    public func sandboxCallsList(_ params: CallListParams, _ context: RequestContext) async throws -> CallPage {
        let filter = try CallMatcher(
            CallMatch(method: params.method, kind: params.kind), at: "", router: router())
        let snapshot = try await journal.snapshot(profile: context.profile)
        let limit = params.limit ?? 100
        var page: [ArrivedEntry] = []
        var next = params.cursor
        var more = false
        for (position, arrived) in snapshot.entries {
            let entry = arrived.entry
            if let cursor = params.cursor, position <= cursor { continue }
            if let since = params.since, entry.at < since { continue }
            if let until = params.until, entry.at >= until { continue }
            guard filter.differences(entry).isEmpty else { continue }
            guard page.count < limit else {
                more = true
                break
            }
            page.append(arrived)
            next = position
        }
        // Pages follow the journal's order (so a cursor never skips an entry); each page is in the
        // order its entries arrived.
        return CallPage(
            entries: CallSnapshot.arrivalOrder(page), next: next, more: more, total: snapshot.entries.count,
            dropped: snapshot.dropped)
    }

    /// `sandbox.calls.count`.
    public func sandboxCallsCount(_ params: CallMatchParams, _ context: RequestContext) async throws -> CallCount {
        let matcher = try CallMatcher(params.match, at: "/match", router: router())
        let entries = try await journal.snapshot(profile: context.profile).inArrivalOrder
        return CallCount(count: entries.count { matcher.matches($0) })
    }

    /// `sandbox.calls.find`.
    public func sandboxCallsFind(_ params: CallFindParams, _ context: RequestContext) async throws -> CallEntries {
        let matcher = try CallMatcher(params.match, at: "/match", router: router())
        let entries = try await journal.snapshot(profile: context.profile).inArrivalOrder
        return CallEntries(
            entries: Array(entries.filter { matcher.matches($0) }.prefix(params.limit ?? 100)))
    }

    /// `sandbox.calls.verify`.
    public func sandboxCallsVerify(_ params: CallVerifyParams, _ context: RequestContext) async throws -> CallVerification {
        let expectation = try CallExpectation(params, router: router())
        let entries = try await journal.snapshot(profile: context.profile).inArrivalOrder
        switch expectation.check(entries) {
        case .held(let ids): return CallVerification(matched: ids.count, entries: ids)
        case .failed(let failure):
            throw RPCError(
                .callsVerificationFailed, "Call verification failed: " + failure.summary(expectation.subject),
                data: JSONValue(encoding: failure))
        }
    }

    /// `sandbox.calls.wait`.
    public func sandboxCallsWait(_ params: CallWaitParams, _ context: RequestContext) async throws -> CallEntries {
        let matcher = try CallMatcher(params.match, at: "/match", router: router())
        let count = params.count ?? 1
        let expectation = CallExpectation(matcher: matcher, bound: .atLeast(count), subject: params.match.method)
        let deadline = ContinuousClock.now + .milliseconds(params.timeoutMs ?? 5000)
        let profile = context.profile, journal = try journal
        while true {
            let signal = journal.waiters.arm(profile)
            defer { journal.waiters.disarm(signal, profile: profile) }
            let entries = try await since(params.after, journal.snapshot(profile: profile))
            let outcome = expectation.check(entries)
            if case .held = outcome {
                return CallEntries(
                    entries: Array(entries.filter { matcher.matches($0) }.prefix(count)))
            }
            let remaining = deadline - ContinuousClock.now
            try Task.checkCancellation()
            let woken = remaining > .zero ? await signal.wait(atMost: remaining) : false
            if !woken {
                try Task.checkCancellation()
                guard case .failed(let failure) = outcome else { continue }
                // One last look: an entry may have come with the deadline.
                if case .held = expectation.check(try await since(params.after, journal.snapshot(profile: profile))) {
                    continue
                }
                throw RPCError(
                    .callsWaitTimedOut,
                    "Calls not seen in time: after \(params.timeoutMs ?? 5000) ms, " + failure.summary(expectation.subject),
                    data: JSONValue(encoding: failure))
            }
        }
    }

    /// The entries of `snapshot` after `cursor` (all when nil).
    private func since(_ cursor: String?, _ snapshot: CallSnapshot) -> [CallEntry] {
        CallSnapshot.arrivalOrder(snapshot.entries.filter { cursor == nil || $0.position > cursor! }.map(\.arrived))
    }

    /// `sandbox.calls.clear`.
    public func sandboxCallsClear(_ params: NoParams, _ context: RequestContext) async throws -> CallsCleared {
        CallsCleared(cleared: try await journal.clear(profile: context.profile))
    }
}
