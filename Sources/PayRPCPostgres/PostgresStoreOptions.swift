import Foundation
import PayRPCStore
import PayRPCSecrets

/// How to reach a shared PostgreSQL store and open its secrets: what `--store`,
/// `--store-key-file` (or `PAYRPC_STORE_KEY`) and `--store-connections` say.
public struct PostgresStoreOptions: Sendable {
    /// The database.
    public var url: PostgresURL
    /// The store key (32 bytes): every instance sharing the database must have the same one.
    public var key: [UInt8]
    /// How many connections the instance's transactions use at once.
    public var connections: Int
    /// The `application_name` the connections show in `pg_stat_activity`.
    public var applicationName: String
    /// How many times a transaction runs before a conflict that persists is given up (and the
    /// call answered -32009, retryable). Tests lower it to make a conflict's handling visible.
    public var attempts: Int

    /// Options for `url` with `key`.
    public init(
        url: PostgresURL, key: [UInt8], connections: Int = 8, applicationName: String = "payrpc",
        attempts: Int = PostgresStateStore.maximumAttempts
    ) {
        self.url = url
        self.key = key
        self.connections = connections
        self.applicationName = applicationName
        self.attempts = attempts
    }
}

/// The store key of a shared store: 32 bytes that every instance is given, from a file
/// (`--store-key-file`: the 32 bytes themselves, or 64 hexadecimal digits, as
/// `openssl rand -hex 32 > store.key` writes) or the `PAYRPC_STORE_KEY` environment variable (64
/// hexadecimal digits). It keys the hashes of card numbers, tokens and PINs and seals what must be
/// given back (idempotent answers, Northstar's credentials, the journal's backend).
public enum StoreKey {
    /// The environment variable holding the key in hexadecimal.
    public static let environmentVariable = "PAYRPC_STORE_KEY"

    /// The key from `file`, else from the environment.
    /// - Throws: ``StoreError`` `secretKey` naming what is missing or malformed.
    public static func load(file: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(StoreError) -> [UInt8]
    {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw StoreError(.secretKey, "--store-key-file: cannot read \(file)")
            }
            let bytes = [UInt8](data)
            if bytes.count == SecretHasher.keySize { return bytes }
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let key = Hex.decode(text), key.count == SecretHasher.keySize else {
                throw StoreError(
                    .secretKey,
                    "--store-key-file: \(file) holds neither 32 bytes nor 64 hexadecimal digits (make one with: openssl rand -hex 32 > \(file))"
                )
            }
            return key
        }
        guard let text = environment[environmentVariable]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            throw StoreError(
                .secretKey,
                "a PostgreSQL store needs its key: --store-key-file FILE or \(environmentVariable) (64 hexadecimal digits, the same on every instance; make one with: openssl rand -hex 32)"
            )
        }
        guard let key = Hex.decode(text), key.count == SecretHasher.keySize else {
            throw StoreError(.secretKey, "\(environmentVariable) must be 64 hexadecimal digits (32 bytes)")
        }
        return key
    }
}
