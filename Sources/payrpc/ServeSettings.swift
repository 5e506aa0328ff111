import ArgumentParser
import Foundation
import Logging
import PayRPCCore
import PayRPCGateway
import PayRPCStore
import PayRPCTransport
import PayRPCSecrets
import PayRPCPostgres
import PayRPCSQLite

/// What `payrpc serve` runs with, as plain values: read from the command line by
/// ``ServeCommand/parsedAlone(_:)`` without swift-argument-parser, or taken from the library's
/// ``ServeCommand``. The defaults stated here are the command's: its declarations read them.
struct ServeSettings: Sendable {
    /// `serve` with no option given.
    static let defaults = ServeSettings()

    var stdio = false
    var tcp: [String] = []
    var unix: [String] = []
    var mcp = false
    var gateway = GatewaySettings()
    var sharedStore = SharedStoreSettings()
    var ephemeral = false
    var maxLineBytes = 1 << 20
    var maxBatch = 1000
    var maxInFlight = 256
    var maxConnections = 1024
    var idleTimeout: Double = 900
    var drainTimeout: Double = 10
    var defaultTimeout = 0
    var methodTimeout: [String] = []
    var authTokenFile: String?
    var storeMaxBytes: String?
    var logging = LoggingSettings()

    /// Rejects what `serve` cannot run with.
    /// - Throws: `ValidationError` saying which option is wrong.
    func validate() throws {
        guard !(ephemeral && gateway.data != nil) else {
            throw ValidationError(
                "--ephemeral and --data exclude each other: an ephemeral server keeps its state in a temporary directory of its own"
            )
        }
        guard maxLineBytes >= 64 else { throw ValidationError("--max-line-bytes must be at least 64") }
        guard maxBatch >= 1 else { throw ValidationError("--max-batch must be at least 1") }
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight must be at least 1") }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1") }
        guard idleTimeout >= 0, drainTimeout >= 0, defaultTimeout >= 0 else {
            throw ValidationError("timeouts must not be negative")
        }
        _ = try storeMaximumBytes()
    }

    /// The tokens of `--auth-token-file`.
    /// - Throws: `ValidationError` naming the file and, for a malformed one, the line.
    static func readTokens(_ path: String) throws -> AccessTokens {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ValidationError("--auth-token-file: cannot read \(path)")
        }
        do { return try AccessTokens(parsing: text) } catch {
            throw ValidationError("--auth-token-file \(path): \(error)")
        }
    }

    /// `--store-max-bytes` in bytes; nil when not given.
    /// - Throws: `ValidationError` for a malformed size or one under 64 KiB (the schema alone
    ///   takes a few pages).
    func storeMaximumBytes() throws -> Int64? {
        guard let text = storeMaxBytes?.trimmingCharacters(in: .whitespaces) else { return nil }
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        let unit = text.last.flatMap { units[Character($0.uppercased())] }
        let digits = unit == nil ? Substring(text) : text.dropLast()
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int64(digits), value > 0,
            case let (bytes, overflow) = value.multipliedReportingOverflow(by: unit ?? 1), !overflow
        else {
            throw ValidationError("--store-max-bytes takes a size in bytes, optionally with K, M or G, got \(text)")
        }
        guard bytes >= 65_536 else { throw ValidationError("--store-max-bytes must be at least 64K") }
        return bytes
    }

    /// Runs the gateway until its input ends or a signal stops it.
    func run() throws {
        SignalMask.unblockAll()
        let logger = logging.makeLogger()
        let ephemeralData = ephemeral ? try EphemeralDataDirectory.create() : nil
        defer { ephemeralData.map { Self.remove($0, logger: logger) } }
        ephemeralData.map(Self.confineUserDirectories)
        var configuration = try gateway.configuration()
        if let ephemeralData { configuration.dataDirectory = ephemeralData.url }
        configuration.sharedStore = try sharedStore.options(applicationName: "payrpc serve")
        configuration.stdio = stdio
        configuration.mcp = mcp
        var endpoints: [Endpoint] = []
        for address in tcp {
            do { endpoints.append(try Endpoint.parse(address)) } catch {
                throw ValidationError("--tcp \(address): \(error)")
            }
        }
        for path in unix { endpoints.append(.unix(path: path)) }
        if endpoints.isEmpty && !stdio { endpoints.append(.tcp(host: "127.0.0.1", port: 7070)) }
        configuration.listeners = endpoints
        configuration.transport.maxLineBytes = maxLineBytes
        configuration.transport.maxConnections = maxConnections
        configuration.transport.idleTimeout = idleTimeout > 0 ? .milliseconds(Int(idleTimeout * 1000)) : nil
        configuration.transport.drainTimeout = .milliseconds(Int(drainTimeout * 1000))
        configuration.store.maximumBytes = try storeMaximumBytes()
        configuration.engine.maxBatch = maxBatch
        configuration.engine.maxInFlight = maxInFlight
        configuration.engine.defaultTimeout = defaultTimeout > 0 ? .milliseconds(defaultTimeout) : nil
        for entry in methodTimeout {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let ms = Int(parts[1]), ms > 0 else {
                throw ValidationError("--method-timeout takes METHOD=MILLISECONDS, got \(entry)")
            }
            configuration.engine.methodTimeouts[parts[0]] = .milliseconds(ms)
        }
        if let authTokenFile {
            let access = AccessControl(try Self.readTokens(authTokenFile))
            configuration.engine.access = access
            configuration.transport.onHangUp = {
                do {
                    let count = try access.reload(String(contentsOfFile: authTokenFile, encoding: .utf8))
                    logger.info("SIGHUP: token file read again", metadata: ["tokens": .stringConvertible(count)])
                } catch {
                    logger.error("SIGHUP: the token file cannot be used, the tokens in force stay: \(error)")
                }
            }
        }
        let gatewayServer: Gateway
        do {
            gatewayServer = try Gateway(configuration: configuration, logger: logger)
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode(2)
        }
        logger.info(
            "payrpc started",
            metadata: [
                "data": .string(configuration.sharedStore?.url.redacted ?? configuration.dataDirectory.path),
                "sandbox": .stringConvertible(configuration.engine.sandbox),
                "methods": .stringConvertible(gatewayServer.router.methodCount),
                "mcp": .stringConvertible(mcp),
            ])
        try gatewayServer.run()
    }

    /// Points the XDG data and cache homes into an `--ephemeral` data directory, so that the
    /// folders Foundation's URL loading creates there (cookies, URL cache) go with it.
    private static func confineUserDirectories(to directory: EphemeralDataDirectory) {
        setenv("XDG_DATA_HOME", directory.url.appendingPathComponent("xdg-data").path, 1)
        setenv("XDG_CACHE_HOME", directory.url.appendingPathComponent("xdg-cache").path, 1)
    }

    /// Removes an `--ephemeral` data directory once the server has stopped.
    private static func remove(_ directory: EphemeralDataDirectory, logger: Logger) {
        do {
            try directory.remove()
            logger.info("removed the ephemeral data directory", metadata: ["data": .string(directory.url.path)])
        } catch {
            logger.error("cannot remove the ephemeral data directory: \(error)", metadata: ["data": .string(directory.url.path)])
        }
    }
}
