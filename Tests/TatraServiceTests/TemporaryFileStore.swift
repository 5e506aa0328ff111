import Foundation
import PayRPCJSON
@testable import TatraService

/// TEMPORARY: a file-backed store for the tests until PayRPCStore's SQLiteStateStore lands: one
/// JSON file per document in the directory, so a reopen sees what was written.
final class TemporaryFileStore: StateStore, @unchecked Sendable {
    private let directory: URL
    private let lock = NSLock()

    init(directory: URL) throws { self.directory = directory }

    private func file(_ profile: String, _ namespace: String, _ key: String) -> URL {
        directory.appendingPathComponent("\(profile)~\(namespace)~\(key).json")
    }

    private func read(_ url: URL) -> JSONValue? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONValue(parsing: String(decoding: data, as: UTF8.self))
    }

    func get(profile: String, namespace: String, key: String) async throws -> JSONValue? {
        lock.withLock { read(file(profile, namespace, key)) }
    }

    func delete(profile: String, namespace: String, key: String) async throws {
        lock.withLock { _ = try? FileManager.default.removeItem(at: file(profile, namespace, key)) }
    }

    func update<R: Sendable>(profile: String, namespace: String, key: String,
                             _ transform: @escaping @Sendable (JSONValue?) throws -> (JSONValue?, R)) async throws -> R {
        try lock.withLock {
            let url = file(profile, namespace, key)
            let (value, result) = try transform(read(url))
            if let value { try Data(value.jsonText.utf8).write(to: url) } else { try? FileManager.default.removeItem(at: url) }
            return result
        }
    }
}
