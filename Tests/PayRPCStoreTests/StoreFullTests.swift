import Foundation
import PayRPCCore
import PayRPCJSON
@testable import PayRPCStore
import Testing
import PayRPCTestSupport
@testable import PayRPCSQLite

/// A store at its size limit (`PRAGMA max_page_count`, what `serve --store-max-bytes` sets): the
/// same `SQLITE_FULL` a full disk gives, on a real SQLite file.
@Suite("A full store")
struct StoreFullTests {
    /// 128 KiB: room for the schema and a few dozen documents of `blob`.
    static let limit: Int64 = 128 * 1024
    /// A document that needs pages of its own (overflow pages), so every new one grows the file.
    static let blob = JSONValue.string(String(repeating: "x", count: 3000))

    /// Puts `blob` documents `big0`, `big1`, ... until one fails; returns the keys that were
    /// acknowledged and the error of the one that was not.
    static func fill(_ store: SQLiteStateStore) async throws -> (acknowledged: [String], error: StoreError) {
        var acknowledged: [String] = []
        for index in 0..<10_000 {
            do {
                try await store.put(profile: "p", namespace: "n", key: "big\(index)", value: blob)
                acknowledged.append("big\(index)")
            } catch let error as StoreError {
                return (acknowledged, error)
            }
        }
        Issue.record("10,000 documents of 3 kB fitted in \(limit) bytes")
        throw StoreError(.database, "never full")
    }

    @Test(
        "an unreachable database or conflicts past their retries are -32009, retryable, and not a key's final answer",
        arguments: [StoreError.Code.unavailable, .conflict])
    func unavailableIsRetryable(_ code: StoreError.Code) {
        let error = StoreError(code, "down").rpcError
        #expect(error.code == .storeUnavailable)
        #expect(error.data?["retryable"] == true)
        #expect(error.isFinal == false)
    }

    @Test("a write past the limit fails with full; what was acknowledged stays, also after a reopen; reads go on")
    func fullKeepsWhatWasAcknowledged() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var store = try openStore(directory) { $0.maximumBytes = Self.limit }
        let (acknowledged, error) = try await Self.fill(store)
        #expect(error.code == .full)
        #expect(error.rpcError.code == .storeFull)
        #expect(error.rpcError.data?["type"] == "storeFull")
        // Not the final answer of an idempotency key: the write was not made, a repeat runs anew.
        #expect(error.rpcError.isFinal == false)
        #expect(acknowledged.count > 5)
        let usage = try await store.usage()
        #expect(usage.maximumBytes == Self.limit)
        #expect(usage.fileBytes <= Self.limit)
        // Reads while full.
        for key in acknowledged {
            #expect(try await store.get(profile: "p", namespace: "n", key: key) == Self.blob)
        }
        // The same write fails again, the same way, and the writer goes on committing writes that fit.
        #expect(
            await storeErrorCode {
                try await store.put(profile: "p", namespace: "n", key: "one-more", value: Self.blob)
            } == .full)
        try await store.put(profile: "p", namespace: "n", key: acknowledged[0], value: Self.blob)

        try await store.close()
        store = try openStore(directory) { $0.maximumBytes = Self.limit }
        let keys = try await store.list(profile: "p", namespace: "n", keyPrefix: nil).map(\.key)
        #expect(Set(keys) == Set(acknowledged))
        #expect(try await store.integrityCheck())
        try await store.close()
    }

    @Test("space freed by deletes takes writes again at once, without a reopen")
    func deletesFreeSpace() async throws {
        try await withStore({ $0.maximumBytes = Self.limit }) { store, _ in
            let (acknowledged, _) = try await Self.fill(store)
            for key in acknowledged.prefix(3) { try await store.delete(profile: "p", namespace: "n", key: key) }
            try await store.put(profile: "p", namespace: "n", key: "after-delete", value: Self.blob)
            #expect(try await store.get(profile: "p", namespace: "n", key: "after-delete") == Self.blob)
        }
    }

    @Test("raising the limit at run time lets the refused write through; removing it too")
    func raiseAtRunTime() async throws {
        try await withStore({ $0.maximumBytes = Self.limit }) { store, _ in
            _ = try await Self.fill(store)
            let raised = try await store.setMaximumBytes(2 * Self.limit)
            #expect(raised.maximumBytes == 2 * Self.limit)
            try await store.put(profile: "p", namespace: "n", key: "after-raise", value: Self.blob)
            // Full again at the new limit, then no limit at all.
            var refused = false
            for index in 0..<200 where !refused {
                refused =
                    await storeErrorCode {
                        try await store.put(profile: "p", namespace: "n", key: "more\(index)", value: Self.blob)
                    } == .full
            }
            #expect(refused)
            #expect(try await store.setMaximumBytes(nil).maximumBytes == nil)
            try await store.put(profile: "p", namespace: "n", key: "unlimited", value: Self.blob)
        }
    }

    @Test("an idempotency claim that does not fit fails with full and leaves no claim behind")
    func idempotencyClaimWhenFull() async throws {
        try await withStore({ $0.maximumBytes = Self.limit }) { store, _ in
            _ = try await Self.fill(store)
            let key = String(repeating: "k", count: 1000)
            var code: StoreError.Code?
            var refusedKey = ""
            for index in 0..<50 where code == nil {
                refusedKey = "\(index)\(key)"
                code = await storeErrorCode {
                    _ = try await store.claim(profile: "p", key: refusedKey, method: "m", paramsDigest: "d")
                }
            }
            #expect(code == .full)
            try await store.setMaximumBytes(nil)
            // Not left in progress: the refused key is new when space returns.
            #expect(try await store.claim(profile: "p", key: refusedKey, method: "m", paramsDigest: "d") == .claimed)
        }
    }

    @Test(
        "group commit: in a batch, exactly the writes that do not fit fail; the others commit; the committer goes on",
        .onThreadOfItsOwn)
    func batchWithFullWrites() async throws {
        try await withStore({ $0.maximumBytes = Self.limit }) { store, _ in
            try await store.put(profile: "p", namespace: "n", key: "small", value: "0")
            let (acknowledged, _) = try await Self.fill(store)
            let failedBefore = store.statistics.failedWrites
            // Hold the writer so that the next writes queue up into one batch.
            let holding = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            async let held: Void = store.update(profile: "p", namespace: "n", key: "small") { _ in
                holding.signal()
                _ = release.wait(timeout: .now() + 120)
                return ("1", ())
            }
            #expect(await waitOnThread(holding))
            let commitsBefore = store.statistics.commits

            // Even indexes: a new 3 kB document (no room); odd: a same-sized rewrite of a small
            // document in place (fits in its page).
            async let outcomes: [Int: StoreError.Code?] = withTaskGroup(of: (Int, StoreError.Code?).self) { group in
                for index in 0..<10 {
                    group.addTask {
                        let code = await storeErrorCode {
                            if index.isMultiple(of: 2) {
                                try await store.put(profile: "p", namespace: "n", key: "batch\(index)", value: Self.blob)
                            } else {
                                try await store.put(profile: "p", namespace: "n", key: "small", value: .string("\(index)"))
                            }
                        }
                        return (index, code)
                    }
                }
                var outcomes: [Int: StoreError.Code?] = [:]
                for await (index, code) in group { outcomes[index] = code }
                return outcomes
            }
            let deadline = Date().addingTimeInterval(60)
            while store.committer.pendingCount < 10, Date() < deadline { await Task.yield() }
            #expect(store.committer.pendingCount == 10)
            release.signal()
            try await held
            let results = await outcomes

            for index in 0..<10 {
                let expected: StoreError.Code? = index.isMultiple(of: 2) ? .full : nil
                #expect(results[index] == .some(expected), "write \(index)")
            }
            #expect(store.statistics.failedWrites - failedBefore == 5)
            // The held update's commit, then the one batch.
            #expect(store.statistics.commits - commitsBefore == 2)
            #expect(try await store.get(profile: "p", namespace: "n", key: "batch0") == nil)

            // Not wedged: space freed, the same write goes through.
            try await store.delete(profile: "p", namespace: "n", key: acknowledged[0])
            try await store.put(profile: "p", namespace: "n", key: "batch0", value: Self.blob)
            #expect(try await store.get(profile: "p", namespace: "n", key: "batch0") == Self.blob)
        }
    }
}
