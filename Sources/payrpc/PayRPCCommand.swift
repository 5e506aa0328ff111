import ArgumentParser

/// `payrpc`: five mobile payment SDK interfaces served as JSON-RPC 2.0 over NDJSON.
///
/// Async at the root so that subcommands which await the store (`payrpc data`) are
/// `AsyncParsableCommand`s; `serve` stays synchronous and runs the libuv loop on the main thread.
@main
struct PayRPCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "payrpc",
        abstract: "Serve five mobile payment SDK interfaces as JSON-RPC 2.0 over newline-delimited JSON.",
        discussion: """
            Run `payrpc serve` (TCP 127.0.0.1:7070 by default) or let a program spawn \
            `payrpc serve --stdio`. Every method and model has a JSON Schema: see `payrpc schemas` \
            and the `rpc.discover` method.
            """,
        version: PayRPCVersionString.value,
        subcommands: [
            ServeCommand.self, CallCommand.self, CallsCommand.self, SchemasCommand.self, ValidateCommand.self, DataCommand.self,
        ]
    )

    /// Runs `payrpc serve …` parsed as `serve`'s options alone (``ServeCommand/parsedAlone(_:)``),
    /// else the library's whole command tree: what every other command, `--help` and every
    /// error go through.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let serve = ServeCommand.parsedAlone(arguments) else { return await main(nil) }
        do {
            try serve.run()
        } catch {
            exit(withError: error)
        }
    }
}
