import CLibPQ
import PayRPCStore

extension StoreError {
    /// The store error for a statement that failed with `result`: a code by the SQLSTATE's class,
    /// and the server's primary message (which never holds parameter values) with the SQLSTATE.
    static func postgres(_ result: OpaquePointer, operation: String) -> StoreError {
        let state = field(result, payrpc_pq_diag_sqlstate()) ?? ""
        let message = field(result, payrpc_pq_diag_message()) ?? PGConnection.message(PQresultErrorMessage(result))
        return StoreError(code(sqlState: state), "\(operation) failed: \(message) (SQLSTATE \(state))")
    }

    /// The code of an SQLSTATE.
    static func code(sqlState: String) -> Code {
        switch sqlState {
        case "40001", "40P01": return .conflict
        case "53100": return .full
        case "57P01", "57P02", "57P03", "53300": return .unavailable
        case "23505", "23503", "23514", "23502", "22001": return .constraint
        case "28000", "28P01", "3D000": return .cannotOpen
        // No SQLSTATE: libpq made the error itself, not the server (the connection was lost:
        // "server closed the connection unexpectedly").
        case "": return .unavailable
        default:
            if sqlState.hasPrefix("08") { return .unavailable }
            return .database
        }
    }

    private static func field(_ result: OpaquePointer, _ code: Int32) -> String? {
        guard let text = PQresultErrorField(result, code) else { return nil }
        return String(cString: text)
    }
}
