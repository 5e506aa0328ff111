import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox

/// A profile's sandbox documents in the store (namespace `sandbox`: `clock`, `generator`,
/// `failures`): written inside a transaction, read all at once when the server starts.
enum SandboxDocuments {
    /// Writes each changed document of `changes` in `documents`.
    static func write(_ changes: [SandboxChange], into documents: StoreTransaction) throws {
        let namespace = SandboxDocumentKey.namespace
        for change in changes {
            if let clock = change.clock {
                try documents.put(clock, profile: change.profile, namespace: namespace, key: SandboxDocumentKey.clock)
            }
            if let generator = change.generator {
                try documents.put(generator, profile: change.profile, namespace: namespace, key: SandboxDocumentKey.generator)
            }
            if let failures = change.failures {
                try documents.put(failures, profile: change.profile, namespace: namespace, key: SandboxDocumentKey.failures)
            }
        }
    }

    /// Every profile's sandbox documents. A document that does not read (written by hand, or by
    /// another version) is left out and logged with its profile and key, so the server still
    /// starts; that profile's control starts afresh.
    static func load(from documents: StoreReader, logger: Logger) throws -> [String: StoredSandboxState] {
        var states: [String: StoredSandboxState] = [:]
        for profile in try documents.profiles(withDocumentsIn: SandboxDocumentKey.namespace) {
            states[profile] = try read(profile: profile, from: documents) { key, error in
                logger.warning(
                    "store: a sandbox document does not read and is left out",
                    metadata: [
                        "profile": .string(profile), "namespace": .string(SandboxDocumentKey.namespace),
                        "key": .string(key), "error": .string(error.description),
                    ])
            }
        }
        return states
    }

    /// One profile's sandbox documents; one that does not read is left out after
    /// `unreadable(key, error)`.
    static func read(
        profile: String, from documents: StoreReader, unreadable: (String, StoreError) -> Void
    ) throws -> StoredSandboxState {
        let namespace = SandboxDocumentKey.namespace
        func read<T: JSONDecodable & Sendable>(_ type: T.Type, _ key: String) throws -> T? {
            do {
                return try documents.get(T.self, profile: profile, namespace: namespace, key: key)
            } catch let error as StoreError where error.code == .invalidDocument || error.code == .corrupt {
                unreadable(key, error)
                return nil
            }
        }
        return StoredSandboxState(
            clock: try read(SandboxClockDocument.self, SandboxDocumentKey.clock),
            generator: try read(SandboxGeneratorDocument.self, SandboxDocumentKey.generator),
            failures: try read(SandboxFailuresDocument.self, SandboxDocumentKey.failures))
    }
}
