import ArgumentParser
import Foundation
import PayRPCPostgres

/// Signals a parent may have left blocked (a test runner's threads often block SIGTERM, and a
/// spawned child inherits the mask): without this, SIGTERM would never reach the loop.
enum SignalMask {
    static func unblockAll() {
        var set = sigset_t()
        sigemptyset(&set)
        pthread_sigmask(SIG_SETMASK, &set, nil)
    }
}

/// `payrpc serve`: runs the gateway on stdio, TCP and Unix sockets, in any combination.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve JSON-RPC 2.0 over newline-delimited JSON.",
        discussion: """
            With no listener option, serves TCP on 127.0.0.1:7070. With --stdio, reads requests \
            from stdin and writes responses to stdout (logs go to stderr); EOF on stdin drains and \
            exits 0. SIGINT and SIGTERM stop accepting, answer what was read, flush and exit 0. \
            State persists in the data directory (--data) unless --ephemeral is given.
            """
    )

    @Flag(help: "Serve stdin/stdout (for a parent process that spawns payrpc).")
    var stdio = ServeSettings.defaults.stdio

    @Option(help: ArgumentHelp("Listen on TCP HOST:PORT (IPv4, or [IPv6]:PORT); repeatable.", valueName: "host:port"))
    var tcp: [String] = ServeSettings.defaults.tcp

    @Option(help: ArgumentHelp("Listen on a Unix socket (created with mode 0600); repeatable.", valueName: "path"))
    var unix: [String] = ServeSettings.defaults.unix

    @Flag(
        help:
            "Speak the Model Context Protocol on every listener: each method a tool, the schemas and guides resources (docs/mcp.md)."
    )
    var mcp = ServeSettings.defaults.mcp

    @OptionGroup var gateway: GatewayOptions

    @OptionGroup var sharedStore: SharedStoreOptions

    @Flag(
        help:
            "Keep every state (store, server key) in a new temporary directory, removed when the server exits (EOF on stdin, SIGINT, SIGTERM); excludes --data."
    )
    var ephemeral = ServeSettings.defaults.ephemeral

    @Option(
        help: ArgumentHelp(
            "Longest accepted line in bytes; a longer one is answered with an error and discarded.", valueName: "bytes"))
    var maxLineBytes = ServeSettings.defaults.maxLineBytes

    @Option(help: ArgumentHelp("Most members of a batch.", valueName: "n"))
    var maxBatch = ServeSettings.defaults.maxBatch

    @Option(
        help: ArgumentHelp(
            "Most requests of one connection in flight; past it the connection is not read until some finish.", valueName: "n"))
    var maxInFlight = ServeSettings.defaults.maxInFlight

    @Option(help: ArgumentHelp("Most simultaneous socket connections.", valueName: "n"))
    var maxConnections = ServeSettings.defaults.maxConnections

    @Option(help: ArgumentHelp("Close socket connections idle for this many seconds (0: never).", valueName: "seconds"))
    var idleTimeout: Double = ServeSettings.defaults.idleTimeout

    @Option(help: ArgumentHelp("Seconds to finish in-flight requests at shutdown before closing anyway.", valueName: "seconds"))
    var drainTimeout: Double = ServeSettings.defaults.drainTimeout

    @Option(
        help: ArgumentHelp(
            "Default deadline of every call in milliseconds (0: none); _meta.timeoutMs overrides it.", valueName: "ms"))
    var defaultTimeout = ServeSettings.defaults.defaultTimeout

    @Option(help: ArgumentHelp("A method's default deadline, as METHOD=MILLISECONDS; repeatable.", valueName: "method=ms"))
    var methodTimeout: [String] = ServeSettings.defaults.methodTimeout

    @Option(
        help: ArgumentHelp(
            "File of the tokens TCP and Unix clients must present in rpc.hello, one a line, each optionally followed by the profiles it may use (names, or prefixes ending in *); SIGHUP reads it again.",
            valueName: "file"))
    var authTokenFile: String?

    @Option(
        help: ArgumentHelp(
            "Most bytes the store's database may take, as BYTES or with a K, M or G suffix (powers of 1024); a write that does not fit is answered with -32008 (Store full). Default: no limit.",
            valueName: "bytes"))
    var storeMaxBytes: String?

    @OptionGroup var logging: LoggingOptions

    /// The options as the plain values `serve` runs with.
    var settings: ServeSettings {
        ServeSettings(
            stdio: stdio, tcp: tcp, unix: unix, mcp: mcp, gateway: gateway.settings, sharedStore: sharedStore.settings,
            ephemeral: ephemeral, maxLineBytes: maxLineBytes, maxBatch: maxBatch, maxInFlight: maxInFlight,
            maxConnections: maxConnections, idleTimeout: idleTimeout, drainTimeout: drainTimeout,
            defaultTimeout: defaultTimeout, methodTimeout: methodTimeout, authTokenFile: authTokenFile,
            storeMaxBytes: storeMaxBytes, logging: logging.settings)
    }

    func validate() throws { try settings.validate() }

    func run() throws { try settings.run() }
}
