import ArgumentParser
import Foundation
import PayRPCStore

/// The options that name a PostgreSQL store shared by several instances instead of the data
/// directory's SQLite store: `--store`, `--store-key-file` (or `PAYRPC_STORE_KEY`) and
/// `--store-connections`. Shared by `serve` and `data`.
struct SharedStoreOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Keep every state in this PostgreSQL database, shared by every instance given it, instead of the data directory's SQLite store (docs/deploy.md).",
            valueName: "postgresql://user@host:port/db"))
    var store: String?

    @Option(
        help: ArgumentHelp(
            "File holding the shared store's key (32 bytes, or 64 hexadecimal digits: openssl rand -hex 32); the same on every instance. Default: $PAYRPC_STORE_KEY.",
            valueName: "file"))
    var storeKeyFile: String?

    @Option(help: ArgumentHelp("How many connections to the shared store each instance keeps.", valueName: "n"))
    var storeConnections = 8

    /// The shared store's options; nil when `--store` is not given.
    /// - Throws: `ValidationError` for a URL that is not PostgreSQL's, a missing or malformed key.
    func options(applicationName: String) throws -> PostgresStoreOptions? {
        guard let store else {
            guard storeKeyFile == nil else { throw ValidationError("--store-key-file goes with --store postgresql://…") }
            return nil
        }
        guard let url = PostgresURL(store) else {
            throw ValidationError(
                "--store takes postgresql://USER@HOST:PORT/DATABASE, got \(PostgresURL.isPostgres(store) ? "a URL without a host or database" : store)"
            )
        }
        guard (1...256).contains(storeConnections) else { throw ValidationError("--store-connections must be between 1 and 256") }
        let key: [UInt8]
        do { key = try StoreKey.load(file: storeKeyFile) } catch { throw ValidationError(error.message) }
        return PostgresStoreOptions(url: url, key: key, connections: storeConnections, applicationName: applicationName)
    }
}
