import ArgumentParser
import Foundation
import PayRPCCalls
import PayRPCCore
import PayRPCGateway
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCStore
import PayRPCSQLite

/// The options that make a gateway (data, sandbox, seed, clock) as plain values: what
/// ``GatewayOptions`` reads and ``ServeSettings`` runs with. Its defaults are the options'.
struct GatewaySettings: Sendable {
    /// No option given.
    static let defaults = GatewaySettings()

    var data: String?
    var sandbox = true
    var sandboxData: [String] = []
    var validateResults = false
    var seed: UInt64?
    var frozenClock: String?
    var journalBackend: String?
    var webAPITimeout = HTTPClient.defaultTimeout
    var callJournal = true
    var callsMax = CallJournalSettings().maxEntries
    var callsBodyMax = CallJournalSettings().bodyLimit

    /// The gateway configuration these options describe.
    /// - Throws: `ValidationError` for a malformed clock, backend URL, Web API timeout or sandbox
    ///   data file.
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
            configuration.backends["journal"] = url
        }
        guard webAPITimeout > 0, webAPITimeout <= 86_400 else {
            throw ValidationError("--web-api-timeout takes seconds above 0 and at most 86400 (a day), got \(webAPITimeout)")
        }
        configuration.webAPITimeout = webAPITimeout
        guard (1...1_000_000).contains(callsMax) else {
            throw ValidationError("--calls-max takes a number of entries from 1 to 1000000, got \(callsMax)")
        }
        guard (256...16 << 20).contains(callsBodyMax) else {
            throw ValidationError("--calls-body-max takes bytes from 256 to 16777216 (16 MiB), got \(callsBodyMax)")
        }
        if callJournal && sandbox {
            var calls = CallJournalSettings()
            calls.maxEntries = callsMax
            calls.bodyLimit = callsBodyMax
            if case .some = frozenClock { calls.frozenAt = RFC3339.parse(frozenClock!) }
            configuration.calls = calls
        } else {
            configuration.calls = nil
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
