import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCTestSupport

/// A ``TestConnection`` whose waits happen on their own thread, so a test suspends instead of
/// blocking a thread of Swift's cooperative pool (which runs the async handlers: with two cores,
/// two blocked tests would starve them until the harness times out).
struct AsyncClient: Sendable {
    let connection: TestConnection
    /// What keeps the server alive while the client is used (the harness stops its loop when
    /// released).
    let owner: any AnyObject & Sendable

    /// Calls a method: its result, or the error it answered, thrown.
    func call(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        let connection = self.connection
        return try await offPool { try connection.call(method, params) }
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

/// Runs blocking `body` on a thread of its own and resumes with its result.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.start()
    }
}
