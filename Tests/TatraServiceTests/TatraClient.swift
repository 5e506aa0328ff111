import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCTestSupport

/// A ``TestConnection`` that keeps its server alive, with the error of a call as a value.
struct TatraClient: Sendable {
    let connection: TestConnection
    /// What keeps the server alive while the client is used (the harness stops its loop when
    /// released).
    let owner: any AnyObject & Sendable

    /// Calls a method: its result, or the error it answered, thrown.
    func call(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        try await connection.call(method, params)
    }

    /// The error a call answered, or nil when it succeeded.
    func error(_ method: String, _ params: JSONValue? = nil) async -> RPCError? {
        do {
            _ = try await call(method, params)
            return nil
        } catch let error as RPCError {
            return error
        } catch {
            return RPCError(.internalError, "\(error)")
        }
    }

    /// Sends a notification.
    func notify(_ method: String, _ params: JSONValue? = nil) {
        connection.notify(method, params)
    }
}
