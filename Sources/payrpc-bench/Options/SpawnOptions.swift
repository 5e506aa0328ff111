import ArgumentParser

/// A server the load generator starts itself and talks to over its stdin/stdout.
struct SpawnOptions: ParsableArguments {
    @Flag(
        help:
            "Spawn `payrpc serve --stdio` (or, with --echo, `payrpc-bench ceiling --stdio`) and talk over its stdin/stdout; it is always reaped."
    )
    var spawn = false

    @Option(help: ArgumentHelp("The payrpc binary that --spawn starts.", valueName: "path"))
    var binary = ".build/release/payrpc"

    @Option(name: .customLong("server-cpu"), help: ArgumentHelp("Pin the spawned server to this CPU core.", valueName: "core"))
    var serverCPU: Int?

    @Argument(
        parsing: .postTerminator,
        help: ArgumentHelp("Extra arguments for the spawned server (after `--`).", valueName: "server-args"))
    var serverArguments: [String] = []

    func validate() throws {
        if !spawn && !serverArguments.isEmpty {
            throw ValidationError("Arguments after `--` are for a spawned server; add --spawn.")
        }
        if serverCPU != nil && !spawn { throw ValidationError("--server-cpu is for a spawned server; pin others with taskset.") }
    }

    /// The command line of the server that `--spawn` starts.
    func arguments(echo: Bool) -> [String] {
        if echo { return [SelfExecutable.path, "ceiling", "--stdio"] + serverArguments }
        return [binary, "serve", "--stdio"] + serverArguments
    }
}
