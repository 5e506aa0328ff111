import Foundation
import Logging

/// Keeps log records so that tests can check what was logged (and how often).
public struct CapturingLogHandler: LogHandler {
    /// The records, shared by every copy of the handler a logger makes.
    public final class Store: @unchecked Sendable {
        private let lock = NSLock()
        private var records: [(Logger.Level, String, Logger.Metadata)] = []

        /// An empty store.
        public init() {}

        /// Keeps one record.
        public func append(_ level: Logger.Level, _ message: String, _ metadata: Logger.Metadata) {
            lock.withLock { records.append((level, message, metadata)) }
        }

        /// Messages logged at `level` or above.
        public func messages(atLeast level: Logger.Level) -> [String] {
            lock.withLock { records.filter { $0.0 >= level }.map(\.1) }
        }

        /// Every record.
        public var all: [(Logger.Level, String, Logger.Metadata)] { lock.withLock { records } }
    }

    /// Where the records go.
    public let store: Store
    /// The logger's metadata.
    public var metadata: Logger.Metadata = [:]
    /// The lowest level kept: everything.
    public var logLevel: Logger.Level = .trace

    /// A handler that records into `store`.
    public init(store: Store) { self.store = store }

    /// A logger that records everything into `store`.
    public static func logger(_ label: String, into store: Store) -> Logger {
        Logger(label: label) { _ in CapturingLogHandler(store: store) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        store.append(event.level, "\(event.message)", merged)
    }
}
