import ArgumentParser

/// `payrpc`: five mobile payment SDK interfaces served as JSON-RPC 2.0 over NDJSON.
@main
struct PayRPCCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "payrpc",
        abstract: "Serve five mobile payment SDK interfaces as JSON-RPC 2.0 over newline-delimited JSON.",
        discussion: """
            Run `payrpc serve` (TCP 127.0.0.1:7070 by default) or let a program spawn \
            `payrpc serve --stdio`. Every method and model has a JSON Schema: see `payrpc schemas` \
            and the `rpc.discover` method.
            """,
        version: PayRPCVersionString.value,
        subcommands: [ServeCommand.self, CallCommand.self, SchemasCommand.self, ValidateCommand.self, DataCommand.self]
    )
}
