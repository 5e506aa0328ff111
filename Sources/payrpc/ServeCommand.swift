import ArgumentParser
import Foundation
import Logging
import PayRPCCore
import PayRPCGateway
import PayRPCStore
import PayRPCTransport
import PayRPCStore

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
    var stdio = false

    @Option(help: ArgumentHelp("Listen on TCP HOST:PORT (IPv4, or [IPv6]:PORT); repeatable.", valueName: "host:port"))
    var tcp: [String] = []

    @Option(help: ArgumentHelp("Listen on a Unix socket (created with mode 0600); repeatable.", valueName: "path"))
    var unix: [String] = []

    @Flag(
        help:
            "Speak the Model Context Protocol on every listener: each method a tool, the schemas and guides resources (docs/mcp.md)."
    )
    var mcp = false

    @OptionGroup var gateway: GatewayOptions

    @OptionGroup var sharedStore: SharedStoreOptions

    @Flag(
        help:
            "Keep every state (store, server key) in a new temporary directory, removed when the server exits (EOF on stdin, SIGINT, SIGTERM); excludes --data."
    )
    var ephemeral = false

    @Option(
        help: ArgumentHelp(
            "Longest accepted line in bytes; a longer one is answered with an error and discarded.", valueName: "bytes"))
    var maxLineBytes = 1 << 20

    @Option(help: ArgumentHelp("Most members of a batch.", valueName: "n"))
    var maxBatch = 1000

    @Option(
        help: ArgumentHelp(
            "Most requests of one connection in flight; past it the connection is not read until some finish.", valueName: "n"))
    var maxInFlight = 256

    @Option(help: ArgumentHelp("Most simultaneous socket connections.", valueName: "n"))
    var maxConnections = 1024

    @Option(help: ArgumentHelp("Close socket connections idle for this many seconds (0: never).", valueName: "seconds"))
    var idleTimeout: Double = 900

    @Option(help: ArgumentHelp("Seconds to finish in-flight requests at shutdown before closing anyway.", valueName: "seconds"))
    var drainTimeout: Double = 10

    @Option(
        help: ArgumentHelp(
            "Default deadline of every call in milliseconds (0: none); _meta.timeoutMs overrides it.", valueName: "ms"))
    var defaultTimeout = 0

    @Option(help: ArgumentHelp("A method's default deadline, as METHOD=MILLISECONDS; repeatable.", valueName: "method=ms"))
    var methodTimeout: [String] = []

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

    func validate() throws {
        guard !(ephemeral && gateway.data != nil) else {
            throw ValidationError(
                "--ephemeral and --data exclude each other: an ephemeral server keeps its state in a temporary directory of its own"
            )
        }
        guard maxLineBytes >= 64 else { throw ValidationError("--max-line-bytes must be at least 64") }
        guard maxBatch >= 1 else { throw ValidationError("--max-batch must be at least 1") }
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight must be at least 1") }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1") }
        guard idleTimeout >= 0, drainTimeout >= 0, defaultTimeout >= 0 else {
            throw ValidationError("timeouts must not be negative")
        }
        _ = try storeMaximumBytes()
    }

    /// The tokens of `--auth-token-file`.
    /// - Throws: `ValidationError` naming the file and, for a malformed one, the line.
    static func readTokens(_ path: String) throws -> AccessTokens {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ValidationError("--auth-token-file: cannot read \(path)")
        }
        do { return try AccessTokens(parsing: text) } catch {
            throw ValidationError("--auth-token-file \(path): \(error)")
        }
    }

    /// `--store-max-bytes` in bytes; nil when not given.
    /// - Throws: `ValidationError` for a malformed size or one under 64 KiB (the schema alone
    ///   takes a few pages).
    func storeMaximumBytes() throws -> Int64? {
        guard let text = storeMaxBytes?.trimmingCharacters(in: .whitespaces) else { return nil }
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        let unit = text.last.flatMap { units[Character($0.uppercased())] }
        let digits = unit == nil ? Substring(text) : text.dropLast()
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int64(digits), value > 0,
            case let (bytes, overflow) = value.multipliedReportingOverflow(by: unit ?? 1), !overflow
        else {
            throw ValidationError("--store-max-bytes takes a size in bytes, optionally with K, M or G, got \(text)")
        }
        guard bytes >= 65_536 else { throw ValidationError("--store-max-bytes must be at least 64K") }
        return bytes
    }

    func run() throws {
        SignalMask.unblockAll()
        let logger = logging.makeLogger()
        let ephemeralData = ephemeral ? try EphemeralDataDirectory.create() : nil
        defer { ephemeralData.map { Self.remove($0, logger: logger) } }
        ephemeralData.map(Self.confineUserDirectories)
        var configuration = try gateway.configuration()
        if let ephemeralData { configuration.dataDirectory = ephemeralData.url }
        configuration.sharedStore = try sharedStore.options(applicationName: "payrpc serve")
        configuration.stdio = stdio
        configuration.mcp = mcp
        var endpoints: [Endpoint] = []
        for address in tcp {
            do { endpoints.append(try Endpoint.parse(address)) } catch {
                throw ValidationError("--tcp \(address): \(error)")
            }
        }
        for path in unix { endpoints.append(.unix(path: path)) }
        if endpoints.isEmpty && !stdio { endpoints.append(.tcp(host: "127.0.0.1", port: 7070)) }
        configuration.listeners = endpoints
        configuration.transport.maxLineBytes = maxLineBytes
        configuration.transport.maxConnections = maxConnections
        configuration.transport.idleTimeout = idleTimeout > 0 ? .milliseconds(Int(idleTimeout * 1000)) : nil
        configuration.transport.drainTimeout = .milliseconds(Int(drainTimeout * 1000))
        configuration.store.maximumBytes = try storeMaximumBytes()
        configuration.engine.maxBatch = maxBatch
        configuration.engine.maxInFlight = maxInFlight
        configuration.engine.defaultTimeout = defaultTimeout > 0 ? .milliseconds(defaultTimeout) : nil
        for entry in methodTimeout {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let ms = Int(parts[1]), ms > 0 else {
                throw ValidationError("--method-timeout takes METHOD=MILLISECONDS, got \(entry)")
            }
            configuration.engine.methodTimeouts[parts[0]] = .milliseconds(ms)
        }
        if let authTokenFile {
            let access = AccessControl(try Self.readTokens(authTokenFile))
            configuration.engine.access = access
            configuration.transport.onHangUp = {
                do {
                    let count = try access.reload(String(contentsOfFile: authTokenFile, encoding: .utf8))
                    logger.info("SIGHUP: token file read again", metadata: ["tokens": .stringConvertible(count)])
                } catch {
                    logger.error("SIGHUP: the token file cannot be used, the tokens in force stay: \(error)")
                }
            }
        }
        let gatewayServer: Gateway
        do {
            gatewayServer = try Gateway(configuration: configuration, logger: logger)
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode(2)
        }
        logger.info(
            "payrpc started",
            metadata: [
                "data": .string(configuration.sharedStore?.url.redacted ?? configuration.dataDirectory.path),
                "sandbox": .stringConvertible(configuration.engine.sandbox),
                "methods": .stringConvertible(gatewayServer.router.methods.count),
                "mcp": .stringConvertible(mcp),
            ])
        try gatewayServer.run()
    }

    /// Points the XDG data and cache homes into an `--ephemeral` data directory, so that the
    /// folders Foundation's URL loading creates there (cookies, URL cache) go with it.
    private static func confineUserDirectories(to directory: EphemeralDataDirectory) {
        setenv("XDG_DATA_HOME", directory.url.appendingPathComponent("xdg-data").path, 1)
        setenv("XDG_CACHE_HOME", directory.url.appendingPathComponent("xdg-cache").path, 1)
    }

    /// Removes an `--ephemeral` data directory once the server has stopped.
    private static func remove(_ directory: EphemeralDataDirectory, logger: Logger) {
        do {
            try directory.remove()
            logger.info("removed the ephemeral data directory", metadata: ["data": .string(directory.url.path)])
        } catch {
            logger.error("cannot remove the ephemeral data directory: \(error)", metadata: ["data": .string(directory.url.path)])
        }
    }
}
