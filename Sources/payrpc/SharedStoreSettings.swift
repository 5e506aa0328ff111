import ArgumentParser
import PayRPCStore
import PayRPCPostgres

/// The shared-store options (`--store`, `--store-key-file`, `--store-connections`) as plain
/// values: what ``SharedStoreOptions`` reads and ``ServeSettings`` runs with. Its defaults are
/// the options'.
struct SharedStoreSettings: Sendable {
    /// No option given.
    static let defaults = SharedStoreSettings()

    var store: String?
    var storeKeyFile: String?
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
