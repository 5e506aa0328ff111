import Foundation
import Logging
import PayRPCCore
import PayRPCStore
import PayRPCTestSupport
import PayRPCSync
import PayRPCSQLite

/// A temporary data directory for one test, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("payrpc-store-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var databasePath: String { url.appendingPathComponent(SQLiteStateStore.fileName).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A logger that drops everything, so test output stays readable.
let quietLogger = Logger(label: "payrpc.store.tests") { _ in SwiftLogNoOpLogHandler() }

/// Opens a store in `directory` with `configure` applied to the defaults.
func openStore(
    _ directory: TemporaryDirectory, clock: ManualClock? = nil,
    _ configure: (inout StoreConfiguration) -> Void = { _ in }
) throws -> SQLiteStateStore {
    var configuration = StoreConfiguration()
    if let clock { configuration.now = { clock.now } }
    configure(&configuration)
    return try SQLiteStateStore(directory: directory.url, configuration: configuration, logger: quietLogger)
}

/// Runs `body` with a fresh store in a fresh directory, then closes and removes both.
func withStore<T>(
    clock: ManualClock? = nil, _ configure: (inout StoreConfiguration) -> Void = { _ in },
    _ body: (SQLiteStateStore, TemporaryDirectory) async throws -> T
) async throws -> T {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try openStore(directory, clock: clock, configure)
    do {
        let result = try await body(store, directory)
        try await store.close()
        return result
    } catch {
        try? await store.close()
        throw error
    }
}
