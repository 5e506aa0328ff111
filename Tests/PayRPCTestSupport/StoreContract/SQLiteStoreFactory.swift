import Foundation
import Logging
import PayRPCStore
import PayRPCSecrets
import PayRPCSQLite

/// The SQLite store in temporary directories, for the ``StoreContract``.
///
/// A crash is the files as a killed process leaves them: the database and its write-ahead log
/// are copied while the store is open and idle (every acknowledged write is in them, as
/// `synchronous=FULL` put it on disk), and a new store opens the copy.
public struct SQLiteStoreFactory: StateStoreFactory {
    /// The factory; `configure` adjusts each store's configuration.
    public init() {}

    public func makeStore(maximumBytes: Int64?) async throws -> SQLiteStateStore {
        try Self.open(Self.newDirectory(), maximumBytes: maximumBytes)
    }

    public func reopenAfterCrash(_ store: SQLiteStateStore) async throws -> SQLiteStateStore {
        let source = URL(fileURLWithPath: store.path).deletingLastPathComponent()
        let copy = Self.newDirectory()
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in [SQLiteStateStore.fileName, SQLiteStateStore.fileName + "-wal", SecretHasher.keyFileName] {
            let file = source.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.copyItem(at: file, to: copy.appendingPathComponent(name))
            }
        }
        try await discard(store)
        return try Self.open(copy, maximumBytes: nil)
    }

    public func discard(_ store: SQLiteStateStore) async throws {
        try await store.close()
        try FileManager.default.removeItem(at: URL(fileURLWithPath: store.path).deletingLastPathComponent())
    }

    static func newDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-contract-\(UUID().uuidString)", isDirectory: true)
    }

    static func open(_ directory: URL, maximumBytes: Int64?) throws -> SQLiteStateStore {
        var configuration = StoreConfiguration()
        configuration.maximumBytes = maximumBytes
        return try SQLiteStateStore(
            directory: directory, configuration: configuration,
            logger: Logger(label: "payrpc.contract") { _ in SwiftLogNoOpLogHandler() })
    }
}
