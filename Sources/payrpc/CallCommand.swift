import ArgumentParser
import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCTransport

/// `payrpc call`: one JSON-RPC call from the command line.
struct CallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Call one method and print its result as pretty JSON.",
        discussion: """
            Connects with --tcp or --unix, or spawns `payrpc serve --stdio` itself with --spawn. \
            Prints the result on stdout; an error goes to stderr and the exit code is 1.
            Example: payrpc call tatra.fetchSetupData --spawn
            """
    )

    @Argument(help: "The method, e.g. rpc.health.")
    var method: String

    @Argument(help: "The params as JSON: an object (by name) or an array (by position).")
    var params: String?

    @Option(help: ArgumentHelp("Connect to TCP HOST:PORT.", valueName: "host:port"))
    var tcp: String?

    @Option(help: ArgumentHelp("Connect to a Unix socket.", valueName: "path"))
    var unix: String?

    @Flag(help: "Spawn `payrpc serve --stdio` (this binary) and call it.")
    var spawn = false

    @Option(
        help: ArgumentHelp(
            "Data directory of the spawned server, which then keeps its state there (default: a temporary one, removed when the call ends: serve --ephemeral).",
            valueName: "dir"))
    var data: String?

    @Option(help: ArgumentHelp("File holding the server's token (sent in rpc.hello).", valueName: "file"))
    var tokenFile: String?

    @Option(help: ArgumentHelp("State profile to use (sent in rpc.hello).", valueName: "name"))
    var profile: String?

    @Option(help: ArgumentHelp("Seconds to wait for the answer.", valueName: "seconds"))
    var timeout: Double = 30

    @Option(
        help: ArgumentHelp(
            "Seconds to keep retrying --tcp or --unix while nothing listens there yet (a server just started in the background).",
            valueName: "seconds"))
    var connectTimeout: Double = 5

    func validate() throws {
        let chosen = [tcp != nil, unix != nil, spawn].filter { $0 }.count
        guard chosen == 1 else { throw ValidationError("choose exactly one of --tcp, --unix or --spawn") }
        guard timeout > 0, connectTimeout >= 0 else {
            throw ValidationError("--timeout must be positive and --connect-timeout not negative")
        }
        if let params {
            let value: JSONValue
            do {
                value = try JSONValue(parsing: params)
            } catch {
                throw ValidationError("params are not JSON (\(error)): \(params)")
            }
            switch value {
            case .object, .array: break
            default: throw ValidationError("params must be a JSON object or array")
            }
        }
    }

    func run() throws {
        var lines: [String] = []
        if let hello = try GatewayHello.params(tokenFile: tokenFile, profile: profile) {
            lines.append(
                JSONValue.object([
                    .init("jsonrpc", "2.0"), .init("id", "hello"), .init("method", .string(Hello.name)),
                    .init("params", hello),
                ]).jsonText)
        }
        var request: [JSONValue.Member] = [.init("jsonrpc", "2.0"), .init("id", "call"), .init("method", .string(method))]
        if let params { request.append(.init("params", try JSONValue(parsing: params))) }
        lines.append(JSONValue.object(request).jsonText)

        let connection: LineConnection
        do {
            if let tcp {
                connection = try LineConnection.connecting(within: connectTimeout) { try LineConnection.tcp(tcp) }
            } else if let unix {
                connection = try LineConnection.connecting(within: connectTimeout) { try LineConnection.unix(unix) }
            } else {
                var arguments = ["serve", "--stdio", "--log-level", "warning"]
                arguments += data.map { ["--data", $0] } ?? ["--ephemeral"]
                connection = try LineConnection.spawn(executable: "/proc/self/exe", arguments: arguments)
            }
        } catch let failure as ConnectFailure {
            FileHandle.standardError.write(Data("payrpc call: \(failure)\n".utf8))
            throw ExitCode(1)
        }
        defer { connection.close() }
        for line in lines { try connection.send(line) }
        let deadline = Date().addingTimeInterval(timeout)
        while let line = try connection.readLine(deadline: deadline) {
            // A line that is not JSON is not an answer to this call: skip it.
            guard let message = JSONValue(parsingIfValid: line) else { continue }
            if message["id"] == "hello", let error = message["error"] {
                FileHandle.standardError.write(Data((error.sortedKeys.canonicalText).utf8))
                throw ExitCode(1)
            }
            guard message["id"] == "call" else { continue }
            if let error = message["error"] {
                FileHandle.standardError.write(Data(error.canonicalText.utf8))
                throw ExitCode(1)
            }
            print((message["result"] ?? .null).canonicalText, terminator: "")
            return
        }
        FileHandle.standardError.write(Data("payrpc call: no answer within \(timeout) s\n".utf8))
        throw ExitCode(1)
    }
}
