import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// Which server the bench talks to over a socket (`--tcp` or `--unix`), and what it knows about the
/// server process.
struct TargetOptions: ParsableArguments {
    @Option(name: .customLong("tcp"), help: ArgumentHelp("Connect to a loopback TCP port.", valueName: "host:port"))
    var tcp: String?

    @Option(name: .customLong("unix"), help: ArgumentHelp("Connect to a Unix socket.", valueName: "path"))
    var unix: String?

    @Option(help: ArgumentHelp("The server's process id, for its CPU time and peak RSS.", valueName: "pid"))
    var serverPID: Int32?

    @Flag(
        help:
            "The target is the ceiling (`payrpc-bench ceiling`), which echoes each line: check ids only, report target \"ceiling\"."
    )
    var echo = false

    @Option(help: ArgumentHelp("Seconds to keep retrying the first connection while the server starts.", valueName: "seconds"))
    var connectTimeout: Double = 5

    func validate() throws {
        guard tcp == nil || unix == nil else { throw ValidationError("Choose one of --tcp and --unix.") }
        if let tcp { _ = try Self.endpoint(tcp: tcp) }
        if connectTimeout < 0 || connectTimeout > 600 { throw ValidationError("--connect-timeout must be 0...600 seconds.") }
    }

    /// The address from `--tcp` or `--unix`; nil when neither was given.
    func endpoint() throws -> TargetAddress? {
        if let tcp { return try Self.endpoint(tcp: tcp) }
        if let unix { return .unix(path: unix) }
        return nil
    }

    /// The address, which this subcommand requires.
    func requiredEndpoint() throws -> TargetAddress {
        guard let address = try endpoint() else { throw ValidationError("Give --tcp or --unix.") }
        return address
    }

    private static func endpoint(tcp: String) throws -> TargetAddress {
        do { return try TargetAddress.tcp(tcp) } catch { throw ValidationError(error.description) }
    }

    /// `payrpc` or `ceiling`.
    var targetName: String { echo ? "ceiling" : "payrpc" }
}
