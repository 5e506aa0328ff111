import ArgumentParser
import PayRPCStore
import PayRPCPostgres
import PayRPCSQLite

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
    var storeConnections = SharedStoreSettings.defaults.storeConnections

    /// The options as plain values.
    var settings: SharedStoreSettings {
        SharedStoreSettings(store: store, storeKeyFile: storeKeyFile, storeConnections: storeConnections)
    }

    /// The shared store's options; nil when `--store` is not given (``SharedStoreSettings/options(applicationName:)``).
    func options(applicationName: String) throws -> PostgresStoreOptions? {
        try settings.options(applicationName: applicationName)
    }
}
