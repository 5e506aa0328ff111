import CLibPQ
import Foundation
import PayRPCStore

/// One libpq connection to the PostgreSQL server, driven synchronously: what a store thread
/// (``PGPool``'s workers, the ``PGListener``) owns and calls, never the event loop.
///
/// Statements are prepared once per connection (``prepare(_:)``); a transaction sends its
/// statements in libpq's pipeline mode (``send(_:_:)``, then ``flush()`` or ``sync()``), so the
/// writes of one transaction and its `COMMIT` cost one round trip. Values are passed as text
/// parameters, never spliced into SQL, and never reach an error message.
///
/// `@unchecked Sendable`: a connection is used by one thread at a time (a worker hands it on only
/// when its job is done).
final class PGConnection: @unchecked Sendable {
    private var handle: OpaquePointer?
    /// What libpq is told to connect to (a `postgresql://` URI; its password, if any, is never logged).
    let target: PostgresURL
    /// Statements prepared on this connection, by name.
    private var prepared: Set<String> = []
    /// Results owed by the server in pipeline mode: one per statement sent and not yet read.
    private(set) var owed = 0
    /// Whether the connection is in pipeline mode.
    private var pipelining = false

    /// Connects (blocking, up to the URL's `connect_timeout`, 5 seconds by default).
    /// - Throws: ``StoreError`` `unavailable` when the server cannot be reached or refuses the login.
    init(_ target: PostgresURL, applicationName: String) throws(StoreError) {
        self.target = target
        try Self.loadLibPQ()
        // The URI comes last: what it says itself (its own connect_timeout) wins. NULL-terminated.
        // The server's notices stay out of stderr: an existing table skipped, and the warning a
        // ROLLBACK after a failed COMMIT gets (the failure already ended the transaction).
        let keywords: [String?] = ["connect_timeout", "application_name", "client_encoding", "options", "dbname", nil]
        let values: [String?] = ["5", applicationName, "UTF8", "-c client_min_messages=error", target.uri, nil]
        handle = withCStringArray(keywords) { keys in
            withCStringArray(values) { values in PQconnectdbParams(keys, values, 1) }
        }
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            let message = handle.map { Self.message(PQerrorMessage($0)) } ?? "out of memory"
            if let handle { PQfinish(handle) }
            self.handle = nil
            throw StoreError(.unavailable, "cannot connect to \(target.redacted): \(message)")
        }
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// Loads libpq (``CLibPQ`` opens it on the first connection, not at start-up).
    /// - Throws: ``StoreError`` `cannotOpen` naming the library when it cannot be loaded.
    private static func loadLibPQ() throws(StoreError) {
        var error = [CChar](repeating: 0, count: 320)
        guard payrpc_pq_load(&error, error.count) == 0 else { return }
        let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw StoreError(.cannotOpen, "\(reason): the PostgreSQL store needs libpq 14 or later (Debian: libpq5)")
    }

    /// Whether the connection is gone (the server restarted or the socket broke): throw it away.
    var isBroken: Bool {
        guard let handle else { return true }
        return PQstatus(handle) != CONNECTION_OK
    }

    /// The socket, for a listener's `poll`.
    var socket: Int32 { handle.map { PQsocket($0) } ?? -1 }

    /// The server process serving this connection (`pg_backend_pid()`).
    var backendPID: Int32 { handle.map { PQbackendPID($0) } ?? 0 }

    // MARK: Simple statements

    /// Runs `sql` (one statement, or several without parameters) and returns its rows.
    /// - Throws: ``StoreError`` mapped from the server's SQLSTATE.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws(StoreError) -> PGRows {
        let handle = try connected()
        let result: OpaquePointer? =
            parameters.isEmpty
            ? PQexec(handle, sql)
            : withCStringArray(parameters) { values in
                PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
            }
        return try take(result, statement: sql)
    }

    /// Prepares `statement` on this connection unless it already is.
    /// - Throws: ``StoreError``.
    func prepare(_ statement: PGStatement) throws(StoreError) {
        guard !prepared.contains(statement.name) else { return }
        let handle = try connected()
        try take(
            PQprepare(handle, statement.name, statement.sql, Int32(statement.parameterCount), nil),
            statement: statement.name)
        prepared.insert(statement.name)
    }

    // MARK: Pipeline

    /// Sends a prepared statement without waiting for its result (pipeline mode).
    /// - Throws: ``StoreError`` `unavailable` when it cannot be sent.
    func send(_ statement: PGStatement, _ parameters: [String?]) throws(StoreError) {
        try prepare(statement)
        let handle = try pipeline()
        let sent = withCStringArray(parameters) { values in
            PQsendQueryPrepared(handle, statement.name, Int32(parameters.count), values, nil, nil, 0)
        }
        guard sent == 1 else { throw lost("sending \(statement.name)") }
        owed += 1
    }

    /// Sends a statement given as text (`BEGIN`, `COMMIT`) without waiting for its result.
    /// - Throws: ``StoreError`` `unavailable` when it cannot be sent.
    func send(_ sql: String) throws(StoreError) {
        let handle = try pipeline()
        guard PQsendQueryParams(handle, sql, 0, nil, nil, nil, nil, 0) == 1 else { throw lost("sending \(sql)") }
        owed += 1
    }

    /// Asks the server to send the results owed so far, without ending the pipeline's transaction.
    /// - Throws: ``StoreError`` `unavailable`.
    func flush() throws(StoreError) {
        let handle = try pipeline()
        guard PQsendFlushRequest(handle) == 1, PQflush(handle) == 0 else { throw lost("flushing") }
    }

    /// Ends the pipeline's current batch (a sync point): the server sends everything owed.
    /// - Throws: ``StoreError`` `unavailable`.
    func sync() throws(StoreError) {
        let handle = try pipeline()
        guard PQpipelineSync(handle) == 1 else { throw lost("syncing") }
        owed += 1
    }

    /// Reads the next owed result: rows, or the error the statement failed with. A statement
    /// skipped because an earlier one of its batch failed reads as `aborted`; a sync point as
    /// `synced`.
    /// - Throws: ``StoreError`` `unavailable` when the connection broke.
    func nextResult() throws(StoreError) -> PGOutcome {
        let handle = try connected()
        guard owed > 0 else { return .synced }
        guard let result = PQgetResult(handle) else { throw lost("reading a result") }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        if status == PGRES_PIPELINE_SYNC {
            owed -= 1
            return .synced
        }
        // Each statement's results end with a NULL.
        while let extra = PQgetResult(handle) { PQclear(extra) }
        owed -= 1
        switch status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return .rows(PGRows(result))
        case PGRES_PIPELINE_ABORTED:
            return .aborted
        default:
            return .failed(StoreError.postgres(result, operation: "a statement"))
        }
    }

    /// Reads every owed result up to the last sync point and leaves pipeline mode; returns the
    /// first error among them (nil when all succeeded).
    /// - Throws: ``StoreError`` `unavailable` when the connection broke.
    func drain() throws(StoreError) -> StoreError? {
        var first: StoreError?
        while owed > 0 {
            if case .failed(let error) = try nextResult(), first == nil { first = error }
        }
        if pipelining, let handle {
            PQexitPipelineMode(handle)
            pipelining = false
        }
        return first
    }

    // MARK: Notifications

    /// Reads what arrived on the socket and returns the notifications among it.
    /// - Throws: ``StoreError`` `unavailable` when the connection broke.
    func notifications() throws(StoreError) -> [(channel: String, payload: String)] {
        let handle = try connected()
        guard PQconsumeInput(handle) == 1 else { throw lost("reading notifications") }
        var received: [(String, String)] = []
        while let notify = PQnotifies(handle) {
            received.append((String(cString: notify.pointee.relname), String(cString: notify.pointee.extra)))
            PQfreemem(notify)
        }
        return received
    }

    // MARK: Helpers

    private func connected() throws(StoreError) -> OpaquePointer {
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            throw StoreError(.unavailable, "the connection to \(target.redacted) is broken")
        }
        return handle
    }

    private func pipeline() throws(StoreError) -> OpaquePointer {
        let handle = try connected()
        if !pipelining {
            guard PQenterPipelineMode(handle) == 1 else { throw lost("entering pipeline mode") }
            pipelining = true
        }
        return handle
    }

    /// The result of a synchronous call, or its error.
    @discardableResult
    private func take(_ result: OpaquePointer?, statement: String) throws(StoreError) -> PGRows {
        guard let result else { throw lost("running \(statement)") }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return PGRows(result)
        default:
            if isBroken { throw lost("running \(statement)") }
            throw StoreError.postgres(result, operation: statement)
        }
    }

    /// The error of a connection that broke while `operation` ran.
    private func lost(_ operation: String) -> StoreError {
        let detail = handle.map { Self.message(PQerrorMessage($0)) } ?? "no connection"
        return StoreError(.unavailable, "the PostgreSQL server at \(target.redacted) went away while \(operation): \(detail)")
    }

    static func message(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// What one owed result of a pipeline was.
enum PGOutcome {
    /// The statement succeeded with these rows (none for a command).
    case rows(PGRows)
    /// The statement failed.
    case failed(StoreError)
    /// The statement was skipped: an earlier statement of its batch failed.
    case aborted
    /// A sync point.
    case synced
}

/// A statement prepared on every connection that runs it, by name.
struct PGStatement: Sendable, Hashable {
    /// The name it is prepared under.
    let name: String
    /// Its text, with `$1`, `$2`, … for parameters.
    let sql: String
    /// How many parameters it takes.
    let parameterCount: Int
}

/// The rows of a result, copied out of libpq's memory as text (NULL as nil).
struct PGRows: Sendable {
    /// Every row's columns.
    let rows: [[String?]]
    /// `PQcmdTuples`: how many rows a command touched.
    let affected: Int

    init(_ result: OpaquePointer) {
        let count = Int(PQntuples(result)), columns = Int(PQnfields(result))
        var rows: [[String?]] = []
        rows.reserveCapacity(count)
        for row in 0..<count {
            var values: [String?] = []
            values.reserveCapacity(columns)
            for column in 0..<columns {
                if PQgetisnull(result, Int32(row), Int32(column)) == 1 {
                    values.append(nil)
                } else {
                    values.append(String(cString: PQgetvalue(result, Int32(row), Int32(column))))
                }
            }
            rows.append(values)
        }
        self.rows = rows
        affected = Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// The first column of the first row, if any.
    var scalar: String? { rows.first?.first ?? nil }
}

/// Calls `body` with the strings as a C array of NUL-terminated strings (nil stays NULL).
func withCStringArray<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    var copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } ?? nil }
    defer { for copy in copies { free(copy) } }
    return copies.withUnsafeMutableBufferPointer { buffer in
        body(buffer.map { $0.map { UnsafePointer($0) } })
    }
}
