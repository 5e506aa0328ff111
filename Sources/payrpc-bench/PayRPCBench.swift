import ArgumentParser

/// `payrpc-bench`: the load generator, the transport ceiling and the benchmark scenarios of payrpc.
@main
struct PayRPCBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "payrpc-bench",
        abstract: "Load generator and benchmark scenarios for payrpc (NDJSON JSON-RPC over TCP, Unix sockets, stdio).",
        discussion: "Traffic goes only to 127.0.0.1 or Unix sockets. See docs/benchmarks.md.",
        subcommands: [
            RunCommand.self, CeilingCommand.self, IdleCommand.self, FloodCommand.self, StartupCommand.self, TableCommand.self,
        ],
        defaultSubcommand: RunCommand.self)
}
