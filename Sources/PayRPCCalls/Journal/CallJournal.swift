#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import PayRPCCore
import PayRPCStore
import PayRPCSync
import Synchronization

/// How big a journal may grow: what `payrpc serve --calls-max` and `--calls-body-max` set.
public struct CallJournalSettings: Sendable, Equatable {
    /// The entries kept per profile; the oldest go first (and are counted as dropped).
    public var maxEntries = 1000
    /// A request, answer or HTTP body over this many bytes is left out of its entry (`cut`).
    public var bodyLimit = 16 * 1024
    /// Where real time stands still (`serve --frozen-clock`): entries then carry that wall time and
    /// no duration, so a seeded transcript that reads the journal repeats byte for byte.
    public var frozenAt: Date?

    /// The defaults.
    public init() {}
}

/// Every profile's call journal: what the gateway answered, sent and fetched for it, bounded,
/// masked, queryable (docs/calls.md). The engine and the services hand it what they do
/// (``CallRecorder``); ``CallJournalService`` answers `sandbox.calls.*` from it.
///
/// On the embedded store the journal lives in the gateway's memory (``MemoryCallStorage``); on a
/// store gateways share, in the store (``SharedCallStorage``), so a profile's journal is one
/// whichever gateway served each call.
public final class CallJournal: CallRecorder {
    /// Its bounds.
    public let settings: CallJournalSettings
    private let storage: any CallStorage
    private let sandbox: any SandboxAccess
    /// Who wants the connections' logs handed over at every read's end (the waits; a shared journal).
    public let demand = CallDemand()
    /// Where connections mark the call they answer inline.
    public let inlineCall = InlineCall()
    let waiters: CallWaiters
    /// Every open connection's log, asked for what it holds before a query is answered.
    private let logs = Lock<[ObjectIdentifier: CallLog]>([:])
    private let router = Lock<Router?>(nil)
    private let counter = Atomic<UInt64>(0)
    /// This gateway's mark on its entries' ids (a store gateways share); nil on one gateway.
    private let mark: String?

    /// A journal within `settings`, reading sandbox times from `sandbox`; `shared`: the store
    /// gateways share (nil: the journal stays in memory).
    public init(settings: CallJournalSettings, sandbox: any SandboxAccess, shared: (any StateStore)?, logger: Logger) {
        self.settings = settings
        self.sandbox = sandbox
        let waiters = CallWaiters(demand: demand)
        self.waiters = waiters
        if let shared {
            let mark = "g" + String(UInt64.random(in: 0...UInt64.max) % 1_679_616, radix: 36)
            self.mark = mark
            self.storage = SharedCallStorage(
                store: shared, maxEntries: settings.maxEntries, mark: mark, logger: logger, grew: { waiters.grew($0) })
            // The flushes run on a timer: every read's calls are handed over at once.
            demand.add()
        } else {
            self.mark = nil
            self.storage = MemoryCallStorage(maxEntries: settings.maxEntries, grew: { waiters.grew($0) })
        }
    }

    /// The router whose declarations name and mask the entries (set once it is built).
    public func attach(_ router: Router) { self.router.withLock { $0 = router } }

    var reader: CallEntryReader {
        CallEntryReader(router: router.withLock { $0 }, gateway: mark, frozenAt: settings.frozenAt)
    }

    // MARK: CallRecorder

    public var bodyLimit: Int { settings.bodyLimit }

    public func take(_ chunk: CallChunk) {
        storage.add(.chunk(chunk), profile: chunk.profile)
    }

    public func pushed(name: String, params: [UInt8], to connection: ConnectionSession, cause: String?) {
        let (profile, client) = connection.profileAndClient
        let push = PushRecord(
            id: "p.\(counter.add(1, ordering: .relaxed).newValue)", name: name,
            params: params.count > settings.bodyLimit ? Array("{}".utf8) : params, connection: connection.id,
            transport: connection.transport, client: client, cause: cause, work: CallScope.current?.work,
            wallAt: Date(), sandboxAt: sandbox.now(profile: profile))
        storage.add(.push(push), profile: profile)
    }

    public func attach(_ log: CallLog) {
        logs.withLock { $0[ObjectIdentifier(log)] = log }
    }

    public func detach(_ log: CallLog) {
        logs.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(log)) }
    }

    /// Asks every open connection's log for what it holds, each on its loop, and returns once
    /// they have handed it over: what a query reads then includes every call answered before it.
    func collectLogs() async {
        let open = logs.withLock { Array($0.values) }
        var byLoop: [ObjectIdentifier: (loop: any EventLoop, logs: [CallLog])] = [:]
        for log in open { byLoop[ObjectIdentifier(log.loop), default: (log.loop, [])].logs.append(log) }
        for (_, group) in byLoop {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                group.loop.execute {
                    for log in group.logs { log.handOffIfOpen() }
                    continuation.resume()
                }
            }
        }
    }

    public func exchanged(_ exchange: HTTPExchangeRecord) {
        let id = "h.\(counter.add(1, ordering: .relaxed).newValue)"
        let took = settings.frozenAt == nil ? exchange.duration : 0
        let sandboxStart = sandbox.now(profile: exchange.scope.profile).addingTimeInterval(-took)
        storage.add(.exchange(exchange, id: id, sandboxStart: sandboxStart), profile: exchange.scope.profile)
    }

    // MARK: Reading

    /// The profile's entries, oldest first, with their positions.
    /// - Throws: a store error (shared journal).
    func snapshot(profile: String) async throws -> CallSnapshot {
        await collectLogs()
        return try await storage.snapshot(profile: profile, reader: reader)
    }

    /// Empties the profile's journal (also `sandbox.reset`'s); returns how many entries it held.
    /// - Throws: a store error (shared journal).
    public func clear(profile: String) async throws -> Int {
        await collectLogs()
        return try await storage.clear(profile: profile)
    }

    /// The background work: a shared journal's flushes and its subscription to the other
    /// gateways' (nothing for one in memory), until the task is cancelled; then the last flush.
    public func run() async {
        await storage.run(reader: { [unowned self] in reader })
    }
}
