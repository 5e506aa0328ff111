import ArgumentParser
import Foundation
import PayRPCCore
import PayRPCGateway
import PayRPCJSON
import PayRPCStore
import PayRPCTransport

/// The options that make a gateway: data, sandbox, limits. Shared by `serve`, `schemas`,
/// `validate` and `data`.
struct GatewayOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Data directory (default: $XDG_DATA_HOME/payrpc, else ~/.local/share/payrpc).", valueName: "dir"))
    var data: String?

    @Flag(inversion: .prefixedNo, help: "Serve the built-in deterministic sandboxes and the sandbox.* helpers.")
    var sandbox = true

    @Option(
        help: ArgumentHelp(
            "A service's sandbox data file, as SERVICE=FILE (e.g. tatra=./my-tatra.json).",
            valueName: "service=file"))
    var sandboxData: [String] = []

    @Flag(help: "Validate every result and notification against its schema before sending it.")
    var validateResults = false

    @Option(
        help: ArgumentHelp(
            "Seed every generated value (tokens, codes, ids) so that the same calls in the same order give the same values; a profile's own seed (rpc.hello {seed}) wins. Default: random.",
            valueName: "n"))
    var seed: UInt64?

    @Option(
        help: ArgumentHelp(
            "Stop real time at this RFC 3339 instant for every profile's sandbox clock: it then moves only with sandbox.clock.advance and sandbox.clock.set, so a transcript replays byte for byte (with --seed). For tests and documentation. Default: real time.",
            valueName: "time"))
    var frozenClock: String?

    @Option(
        help: ArgumentHelp(
            "The journal's Web API (POST /payments/, /journals/) for every profile that sets none with journal.configure. Without one, journal entries go to the built-in sandbox Web API (with --no-sandbox they wait locally).",
            valueName: "url"))
    var journalBackend: String?

    /// The gateway configuration these options describe.
    func configuration() throws -> GatewayConfiguration {
        var configuration = GatewayConfiguration(dataDirectory: DataDirectory.resolve(explicit: data))
        configuration.engine.sandbox = sandbox
        configuration.engine.validateResults = validateResults
        configuration.seed = seed
        if let frozenClock {
            guard let instant = RFC3339.parse(frozenClock) else {
                throw ValidationError("--frozen-clock takes an RFC 3339 time such as 2026-11-25T10:40:00Z, got \(frozenClock)")
            }
            configuration.time = .frozen(at: instant)
        }
        if let journalBackend {
            guard let url = URL(string: journalBackend), let scheme = url.scheme, ["http", "https"].contains(scheme) else {
                throw ValidationError("--journal-backend takes an http(s) URL, got \(journalBackend)")
            }
            configuration.journalBackend = url
        }
        for entry in sandboxData {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ValidationError("--sandbox-data takes SERVICE=FILE, got \(entry)")
            }
            let url = URL(fileURLWithPath: parts[1])
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw ValidationError("--sandbox-data: cannot read \(parts[1])")
            }
            configuration.sandboxData[parts[0]] = url
        }
        return configuration
    }
}
