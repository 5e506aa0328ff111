import Foundation
import PayRPCStore

/// Where a PostgreSQL store lives: `postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?PARAMS]`
/// (`serve --store`), handed to libpq as it is.
///
/// The password is better given outside the URL (`PGPASSWORD`, `~/.pgpass`, or a
/// `passfile=` parameter), which libpq reads itself; ``redacted`` is what logs and errors show.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// The URI as given.
    public let uri: String
    /// The URI with any password replaced by `***`.
    public let redacted: String
    /// The database's name.
    public let database: String

    /// Parses `text`; nil when it is not a `postgresql://` (or `postgres://`) URL.
    public init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "postgresql" || scheme == "postgres", components.host?.isEmpty == false || components.query != nil
        else { return nil }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.isEmpty, !path.contains("/") else { return nil }
        uri = text
        database = path.removingPercentEncoding ?? path
        var shown = components
        if shown.password != nil { shown.password = "***" }
        redacted = shown.string ?? "postgresql://…"
    }

    /// Whether `text` names a PostgreSQL store rather than a data directory.
    public static func isPostgres(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
    }

    public var description: String { redacted }
}
