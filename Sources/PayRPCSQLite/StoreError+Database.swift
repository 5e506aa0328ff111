import GRDB
import PayRPCStore

extension StoreError {
    /// The store error for a failure of `operation`: SQLite errors get a code by their result
    /// code and a message without statement arguments (which may hold document values); store
    /// errors pass through; anything else is wrapped.
    static func from(_ error: any Error, operation: String) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? DatabaseError else {
            return StoreError(.database, "\(operation) failed: \(error)")
        }
        let detail = error.message ?? "\(error.resultCode)"
        let code: Code
        switch error.resultCode {
        case .SQLITE_NOTADB: code = .notADatabase
        case .SQLITE_CORRUPT: code = .corrupt
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH: code = .cannotOpen
        case .SQLITE_BUSY, .SQLITE_LOCKED: code = .busy
        case .SQLITE_FULL: code = .full
        case .SQLITE_IOERR, .SQLITE_READONLY: code = .io
        case .SQLITE_CONSTRAINT: code = .constraint
        case .SQLITE_MISUSE where detail.contains("closed"): code = .closed
        default: code = .database
        }
        return StoreError(code, "\(operation) failed: \(detail) (SQLite code \(error.extendedResultCode.rawValue))")
    }
}
