import Foundation
import PayRPCStore

/// What became of a transaction whose `COMMIT` was sent on a connection that broke before its
/// answer was read.
enum PGCommitFate: Equatable {
    /// The server committed it: the call succeeded.
    case committed
    /// The server rolled it back (or never got the `COMMIT`): it may run again.
    case aborted
    /// Nobody can say (the server is unreachable, or the identifier was lost with the connection).
    case unknown
}

extension PostgresStateStore {
    /// How long a transaction the server still reports `in progress` is waited for: its old
    /// connection's server process is finishing the commit, or has not yet noticed the break.
    static let commitFateWait: Duration = .seconds(2)

    /// Asks the server, on a new connection of the session, what became of transaction
    /// `transaction` (`pg_xact_status`). A transaction still in progress is asked about again
    /// every 50 ms for up to ``commitFateWait``, then counts as unknown.
    static func commitFate(of transaction: String?, _ session: PGSession) -> PGCommitFate {
        guard let transaction else { return .unknown }
        let deadline = ContinuousClock.now + commitFateWait
        while true {
            let status: String?
            do {
                status = try session.connection().execute(PGStatements.transactionStatus.sql, [transaction]).scalar
            } catch {
                session.discard()
                return .unknown
            }
            switch status {
            case "committed": return .committed
            case "aborted": return .aborted
            case "in progress" where ContinuousClock.now < deadline: usleep(50_000)
            default: return .unknown
            }
        }
    }

    /// The oldest server the store runs on: PostgreSQL 13, for `pg_current_xact_id()` and
    /// `pg_xact_status()` (a lost commit's fate, ``commitFate(of:_:)``).
    static let minimumServerVersion = 130_000

    /// Refuses a server older than ``minimumServerVersion`` at start-up, with the versions, rather
    /// than failing every write later.
    /// - Throws: ``StoreError`` `cannotOpen`.
    static func checkServerVersion(_ connection: PGConnection, _ url: PostgresURL) throws(StoreError) {
        let version = Int(try connection.execute("SHOW server_version_num").scalar ?? "") ?? 0
        guard version >= minimumServerVersion else {
            throw StoreError(
                .cannotOpen,
                "\(url.redacted) runs PostgreSQL \(version / 10_000); the store needs PostgreSQL 13 or later")
        }
    }
}
