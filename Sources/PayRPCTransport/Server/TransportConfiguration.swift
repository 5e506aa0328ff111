/// The limits and timeouts of a ``LibUVServer``, each with a safe default.
///
/// The command line maps its options (`--max-line-bytes`, `--max-connections`,
/// `--idle-timeout`, `--drain-timeout`) onto these fields.
public struct TransportConfiguration: Sendable {
    /// The longest line accepted, in bytes without its terminator (`--max-line-bytes`). A longer
    /// line is reported to the handler and discarded as it arrives.
    public var maxLineBytes = 1 << 20
    /// Unsent output bytes of one connection above which the server stops reading from it.
    public var highWaterMark = 4 << 20
    /// Unsent output bytes below which reading resumes.
    public var lowWaterMark = 1 << 20
    /// Socket connections served at once (`--max-connections`; stdio is not counted). A connection
    /// over the limit is accepted and closed at once, with a warning in the log.
    public var maxConnections = 1024
    /// Socket connections with no traffic and nothing in flight for this long are closed
    /// (`--idle-timeout`); `nil` never closes them.
    public var idleTimeout: Duration? = nil
    /// How long a shutdown waits for connections to answer what they have read before closing
    /// them anyway (`--drain-timeout`).
    public var drainTimeout: Duration = .seconds(10)
    /// Whether SIGINT and SIGTERM start a shutdown. Tests that run servers inside the test process
    /// turn it off.
    public var handlesSignals = true
    /// Called on the loop thread when SIGHUP arrives (with ``handlesSignals``): the command line
    /// reads its token file again. nil: SIGHUP keeps its default action.
    public var onHangUp: (@Sendable () -> Void)?

    /// The defaults.
    public init() {}
}
