import ArgumentParser

/// The options that make a gateway: data, sandbox, limits. Shared by `serve`, `schemas`,
/// `validate` and `data`.
struct GatewayOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Data directory (default: $XDG_DATA_HOME/payrpc, else ~/.local/share/payrpc).", valueName: "dir"))
    var data: String?

    @Flag(inversion: .prefixedNo, help: "Serve the built-in deterministic sandboxes and the sandbox.* helpers.")
    var sandbox = GatewaySettings.defaults.sandbox

    @Option(
        help: ArgumentHelp(
            "A service's sandbox data file, as SERVICE=FILE (e.g. tatra=./my-tatra.json).",
            valueName: "service=file"))
    var sandboxData: [String] = GatewaySettings.defaults.sandboxData

    @Flag(help: "Validate every result and notification against its schema before sending it.")
    var validateResults = GatewaySettings.defaults.validateResults

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

    @Option(
        help: ArgumentHelp(
            "How long one request a service makes to a Web API may take before it counts as failed (the journal's backend, a Dotpay shop's URLC, the Orders v2 API), in seconds; the built-in sandbox Web API's `hang` lasts as long. Several gateways on one store should use the same value: each waits this long (and a second) for a try another gateway holds.",
            valueName: "seconds"))
    var webAPITimeout = GatewaySettings.defaults.webAPITimeout

    @Flag(
        inversion: .prefixedNo,
        help:
            "Keep the call journal: every call, notification and outgoing HTTP exchange of each profile, secrets masked, read with sandbox.calls.* and `payrpc calls` (sandbox mode only; docs/calls.md)."
    )
    var callJournal = GatewaySettings.defaults.callJournal

    @Option(
        help: ArgumentHelp(
            "The entries the call journal keeps per profile; the oldest go first, and are counted as dropped.",
            valueName: "n"))
    var callsMax = GatewaySettings.defaults.callsMax

    @Option(
        help: ArgumentHelp(
            "The bytes of a request, an answer or an HTTP body the call journal keeps; a bigger one is left out of its entry (marked cut).",
            valueName: "bytes"))
    var callsBodyMax = GatewaySettings.defaults.callsBodyMax

    /// The options as plain values.
    var settings: GatewaySettings {
        GatewaySettings(
            data: data, sandbox: sandbox, sandboxData: sandboxData, validateResults: validateResults, seed: seed,
            frozenClock: frozenClock, journalBackend: journalBackend, webAPITimeout: webAPITimeout,
            callJournal: callJournal, callsMax: callsMax, callsBodyMax: callsBodyMax)
    }
}
