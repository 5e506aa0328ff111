import Foundation
import PayRPCTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `docs/protocol.md` as a newcomer runs it: every `$ command` block (Python, Node, Go's
/// jsonrpc2, socat, nc) runs against a spawned gateway on TCP and prints exactly what the page
/// shows, and every `>`/`<` exchange gets exactly the answers shown. The tools come from
/// `scripts/ensure-deps --with-clients`.
@Suite struct StockClientTests {
    static let page = SpawnedServer.repositoryRoot.appendingPathComponent("docs/protocol.md")
    /// The address the page's examples are written for.
    static let documentedAddress = "127.0.0.1:7070"

    /// A `$ command` block: the command and the output it must print.
    struct Example {
        var command: String
        var output: String
    }

    /// The page's fenced blocks: the commands, and the exchanges as (request, answer) pairs.
    static func blocks() throws -> (examples: [Example], exchanges: [[(String, String)]]) {
        let text = try String(contentsOf: page, encoding: .utf8)
        var examples: [Example] = []
        var exchanges: [[(String, String)]] = []
        var block: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if let lines = block {
                    if let first = lines.first, first.hasPrefix("$ ") {
                        examples.append(
                            Example(
                                command: String(first.dropFirst(2)),
                                output: lines.dropFirst().map { $0 + "\n" }.joined()))
                    } else if lines.first?.hasPrefix("> ") == true {
                        var pairs: [(String, String)] = []
                        var pending: String?
                        for line in lines {
                            if line.hasPrefix("> ") { pending = String(line.dropFirst(2)) }
                            if line.hasPrefix("< "), let request = pending { pairs.append((request, String(line.dropFirst(2)))) }
                        }
                        exchanges.append(pairs)
                    }
                    block = nil
                } else {
                    block = []
                }
            } else if block != nil {
                block?.append(line)
            }
        }
        return (examples, exchanges)
    }

    /// One gateway for the whole page, as a reader would start it.
    @Test func everyExampleAndExchangeOfThePageGivesWhatThePageShows() async throws {
        let (examples, exchanges) = try Self.blocks()
        let commands = examples.map(\.command)
        for tool in ["python3 ", "node ", "go run ", "| nc -N ", "| socat "] {
            #expect(commands.contains { $0.contains(tool) }, "docs/protocol.md has no example with \(tool)")
        }
        let pairs = exchanges.flatMap { $0 }
        // `"params": null` is among the exchanges, answered as if absent.
        #expect(pairs.contains { $0.0.contains(#""method":"rpc.health","params":null"#) && $0.1.contains(#""result""#) })

        let server = try await SpawnedServer(["serve", "--tcp", "127.0.0.1:0"])
        let address = try #require(await server.listeningAddress())
        let host = address.split(separator: ":").dropLast().joined(separator: ":")
        let port = address.split(separator: ":").last.map(String.init) ?? ""
        for example in examples {
            for tool in ["python3", "node", "go", "nc", "socat"]
            where example.command.split(separator: " ").contains(Substring(tool)) {
                let found = try await ChildRun.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "command -v \(tool)"])
                try #require(found.status == 0, "\(tool) is missing: run scripts/ensure-deps --with-clients")
            }
            let command = example.command
                .replacingOccurrences(of: Self.documentedAddress, with: address)
                .replacingOccurrences(
                    of: Self.documentedAddress.replacingOccurrences(of: ":", with: " "), with: "\(host) \(port)")
            let run = try await ChildRun.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", command],
                in: SpawnedServer.repositoryRoot, timeout: 300)
            #expect(run.status == 0, "\(example.command) failed: \(run.errors)")
            #expect(run.output == example.output, "\(example.command) printed:\n\(run.output)")
        }
        let client = try SocketClient(tcp: address)
        for (request, answer) in pairs {
            client.sendLine(request)
            #expect(await client.nextLine() == answer, "\(request)")
        }
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }
}
