import Foundation
import PayRPCJSON
import PayRPCStore
import Testing
import PayRPCTestSupport
import PayRPCSQLite

@Suite("SQLite setup: durability, WAL, migrations")
struct SQLiteSetupTests {
    @Test("synchronous=FULL holds on the writer connection after the pool is open")
    func synchronousFull() async throws {
        try await withStore { store, _ in
            // A write first, so the check is on a writer that has been used.
            try await store.put(profile: "p", namespace: "n", key: "k", value: 1)
            let diagnostics = try await store.diagnostics()
            #expect(diagnostics.synchronous == 2)
        }
    }

    @Test("the writer's page cache and checkpoint interval are the configured ones, not SQLite's defaults (issue 19)")
    func writerCacheAndCheckpoints() async throws {
        try await withStore { store, _ in
            try await store.put(profile: "p", namespace: "n", key: "k", value: 1)
            let diagnostics = try await store.diagnostics()
            #expect(diagnostics.writerCacheKibibytes == StoreConfiguration().writerCacheKibibytes)
            #expect(diagnostics.checkpointPages == StoreConfiguration().checkpointPages)
            #expect(diagnostics.writerCacheKibibytes != 2000 && diagnostics.checkpointPages != 1000)
        }
        try await withStore({
            $0.writerCacheKibibytes = 4096
            $0.checkpointPages = 500
        }) { store, _ in
            let diagnostics = try await store.diagnostics()
            #expect(diagnostics.writerCacheKibibytes == 4096)
            #expect(diagnostics.checkpointPages == 500)
        }
    }

    @Test("synchronousFull = false gives NORMAL")
    func synchronousNormal() async throws {
        try await withStore({ $0.synchronousFull = false }) { store, _ in
            let diagnostics = try await store.diagnostics()
            #expect(diagnostics.synchronous == 1)
        }
    }

    @Test("the database is in WAL mode and writes go to the -wal file")
    func walMode() async throws {
        try await withStore { store, directory in
            try await store.put(profile: "p", namespace: "n", key: "k", value: "v")
            #expect(try await store.diagnostics().journalMode == "wal")
            #expect(FileManager.default.fileExists(atPath: directory.databasePath + "-wal"))
        }
    }

    @Test("migrations apply on a fresh database and are kept on reopen with the data")
    func migrations() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try openStore(directory)
        let fresh = try await first.diagnostics().appliedMigrations
        #expect(fresh == ["v1 documents and idempotency keys"])
        try await first.put(profile: "p", namespace: "n", key: "k", value: ["a": 1])
        try await first.close()

        let second = try openStore(directory)
        #expect(try await second.diagnostics().appliedMigrations == fresh)
        #expect(try await second.get(profile: "p", namespace: "n", key: "k") == ["a": 1])
        #expect(try await second.integrityCheck())
        try await second.close()
    }

    @Test("a file that is not a database gives a clear notADatabase error")
    func notADatabase() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let garbage = String(repeating: "this is not a SQLite database\n", count: 200)
        try garbage.write(toFile: directory.databasePath, atomically: true, encoding: .utf8)
        do {
            _ = try openStore(directory)
            Issue.record("opening a text file as the store succeeded")
        } catch let error as StoreError {
            #expect(error.code == .notADatabase)
            #expect(error.description.contains("is not a SQLite database"))
            #expect(error.description.contains(SQLiteStateStore.fileName))
        }
    }

    @Test("a damaged database fails integrity check or opening, without crashing")
    func corruptDatabase() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openStore(directory)
        for index in 0..<300 {
            try await store.put(
                profile: "p", namespace: "n", key: "k\(index)",
                value: .string(String(repeating: "x", count: 200)))
        }
        try await store.close()
        // Overwrite every page after the first (which holds the schema) with garbage.
        let handle = try #require(FileHandle(forUpdatingAtPath: directory.databasePath))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: Int(size) - 4096))
        try handle.close()

        do {
            let reopened = try openStore(directory)
            var healthy = true
            do {
                healthy = try await reopened.integrityCheck()
            } catch let error as StoreError {
                healthy = false
                #expect(error.code == .corrupt)
            }
            #expect(!healthy)
            try? await reopened.close()
        } catch let error as StoreError {
            #expect(error.code == .corrupt || error.code == .notADatabase)
        }
    }

    @Test("a database locked by another writer fails to open with a clear busy error", .onThreadOfItsOwn)
    func lockedDatabase() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openStore(directory)
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // An update whose transform waits keeps the write transaction (and its lock) open.
        async let held: Void = store.update(profile: "p", namespace: "n", key: "k") { _ in
            holding.signal()
            _ = release.wait(timeout: .now() + 120)
            return (1, ())
        }
        #expect(await waitOnThread(holding))
        var code: StoreError.Code?
        var message = ""
        do {
            let other = try openStore(directory) { $0.busyTimeout = .milliseconds(100) }
            try? await other.close()
        } catch let error as StoreError {
            code = error.code
            message = error.description
        }
        release.signal()
        try await held
        #expect(code == .busy)
        #expect(message.contains("another payrpc process"))
        try await store.close()
    }

    @Test("calls after close fail with closed")
    func closedStore() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openStore(directory)
        try await store.close()
        try await store.close()
        #expect(await storeErrorCode { try await store.put(profile: "p", namespace: "n", key: "k", value: 1) } == .closed)
        #expect(await storeErrorCode { _ = try await store.get(profile: "p", namespace: "n", key: "k") } == .closed)
    }
}

/// Waits for `semaphore` on a thread of its own (at most 120 s), neither on the cooperative pool
/// nor on Dispatch's global queue.
///
/// What signals it is a store call begun with `async let` in a test that runs
/// `.onThreadOfItsOwn`, so that the call begins at once instead of queueing for the cooperative
/// pool behind the rest of the suite (under CI's sanitizers that queue was longer than 120 s). On
/// Linux that pool runs on Dispatch's global queue, whose threads are as many as the cores: a test
/// waiting there would take one of them from the very call it waits for; a `Thread` of its own
/// takes nothing from either.
func waitOnThread(_ semaphore: DispatchSemaphore) async -> Bool {
    await EventWait.blocking(timeout: 130) { semaphore.wait(timeout: .now() + 120) == .success } ?? false
}

@Suite("Temporary stores for the tests of services")
struct TemporaryStoreTests {
    @Test("a temporary store works and its directory is gone after close")
    func temporary() async throws {
        let store = try SQLiteStateStore.temporary(logger: quietLogger)
        try await store.put(profile: "p", namespace: "n", key: "k", value: true)
        #expect(try await store.get(profile: "p", namespace: "n", key: "k") == true)
        #expect(FileManager.default.fileExists(atPath: store.path))
        try await store.close()
        #expect(!FileManager.default.fileExists(atPath: URL(fileURLWithPath: store.path).deletingLastPathComponent().path))
    }
}
