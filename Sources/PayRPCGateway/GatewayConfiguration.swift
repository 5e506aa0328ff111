import Foundation
import PayRPCCalls
import PayRPCCore
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCStore
import PayRPCTransport
import PayRPCPostgres

/// Everything `payrpc serve` is told: listeners, limits, data, sandbox.
public struct GatewayConfiguration: Sendable {
    /// The JSON-RPC engine's limits and identity.
    public var engine = EngineConfiguration()
    /// The transport's limits.
    public var transport = TransportConfiguration()
    /// The store's settings.
    public var store = StoreConfiguration()
    /// Socket listeners.
    public var listeners: [Endpoint] = []
    /// Whether to serve stdin/stdout.
    public var stdio = false
    /// Whether every listener speaks the Model Context Protocol instead of plain JSON-RPC (`--mcp`).
    public var mcp = false
    /// The data directory (`--data`).
    public var dataDirectory: URL
    /// A PostgreSQL store shared by several instances (`--store postgresql://…`); nil: the
    /// embedded SQLite store in ``dataDirectory``.
    public var sharedStore: PostgresStoreOptions?
    /// Sandbox data files by service (`--sandbox-data tatra=FILE`).
    public var sandboxData: [String: URL] = [:]
    /// The seed of every profile's generated values (`--seed`); nil: random.
    public var seed: UInt64?
    /// The clocks the server reads: the wall clock once at start, the monotonic clock after
    /// (see ``RealTimeClock``); the store's own `now` is replaced by that real time.
    public var time: TimeSource = .system
    /// Each service's Web API for profiles that set none, by service name (`--journal-backend`
    /// sets `journal`'s); none: the built-in sandbox Web API (sandbox mode), else entries wait.
    public var backends: [String: URL] = [:]
    /// How long one request a service makes to a Web API may take, in seconds (the journal's
    /// backend, a Dotpay shop's URLC, the Orders v2 API; `--web-api-timeout`).
    public var webAPITimeout = HTTPClient.defaultTimeout
    /// The call journal's bounds (`--calls-max`, `--calls-body-max`); nil: no journal
    /// (`--no-call-journal`, or not in sandbox mode).
    public var calls: CallJournalSettings? = CallJournalSettings()

    public init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }
}
