import ArgumentParser
import Logging
import PayRPCCore
import PayRPCTransport
#if canImport(Glibc)
import Glibc
#endif

/// `payrpc-bench ceiling`: the libuv transport of `payrpc serve` with a handler that echoes every line
/// unparsed. What it achieves is the ceiling every payrpc figure is compared with.
struct CeilingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ceiling",
        abstract: "Serve the bare payrpc transport: every line is written straight back, unparsed.",
        discussion: """
            Runs PayRPCTransport's LibUVServer with LineEchoHandlerFactory: the same loop, framing, \
            write queue and backpressure as `payrpc serve`, without the JSON-RPC engine. Measure it \
            with `payrpc-bench --echo ...`. SIGINT/SIGTERM (or EOF on stdin with --stdio) stop it \
            gracefully. Logs go to stderr.
            """)

    @Option(help: ArgumentHelp("Listen on a loopback TCP address (port 0: any free port).", valueName: "host:port"))
    var tcp: String?

    @Option(help: ArgumentHelp("Listen on a Unix socket.", valueName: "path"))
    var unix: String?

    @Flag(help: "Serve stdin/stdout.")
    var stdio = false

    @Option(help: "Most connections served at once.")
    var maxConnections = 4096

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "warning"

    func validate() throws {
        guard [tcp != nil, unix != nil, stdio].filter({ $0 }).count >= 1 else {
            throw ValidationError("Give --tcp, --unix or --stdio (several are allowed).")
        }
        if let tcp {
            let parsed = try Self.endpoint(tcp)
            guard case .tcp(let host, _) = parsed, host.hasPrefix("127.") || host == "localhost" else {
                throw ValidationError("--tcp must be a loopback address (127.0.0.1:PORT).")
            }
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("Unknown --log-level \(logLevel).") }
        guard (1...1_000_000).contains(maxConnections) else { throw ValidationError("--max-connections must be 1...1000000.") }
    }

    private static func endpoint(_ text: String) throws -> PayRPCTransport.Endpoint {
        do { return try PayRPCTransport.Endpoint.parse(text) } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        let level = Logger.Level(rawValue: logLevel) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        FileLimits.raise(toAtLeast: maxConnections + 64)
        var configuration = TransportConfiguration()
        configuration.maxConnections = maxConnections
        let server = LibUVServer(
            configuration: configuration, handlerFactory: LineEchoHandlerFactory(),
            logger: Logger(label: "payrpc.ceiling"))
        do {
            if let tcp { try server.listen(try Self.endpoint(tcp)) }
            if let unix { try server.listen(.unix(path: unix)) }
            if stdio { try server.attachStdio() }
        } catch let error as TransportError {
            throw BenchError("ceiling: \(error)")
        }
        for address in server.boundAddresses {
            StandardError.write("payrpc-bench ceiling: listening on \(address) (pid \(getpid()))\n")
        }
        do { try server.run() } catch { throw BenchError("ceiling: \(error)") }
    }
}
