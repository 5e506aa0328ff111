import GRDB
import PayRPCStore

/// One caller's write waiting for the ``GroupCommitter``: its body, and the continuation that
/// answers the caller once the batch it ran in has committed (or it failed).
///
/// `outcome` is touched only on GRDB's writer queue, by the committer; the continuation is
/// resumed exactly once, by ``finish(commitError:)``.
/// `@unchecked Sendable`: `outcome` is touched only on GRDB's writer queue; the continuation is resumed once.
final class WriteOperation<Value: Sendable>: PendingWrite, @unchecked Sendable {
    private let body: @Sendable (Database) throws -> Value
    private let continuation: CheckedContinuation<Value, any Error>
    private let operation: String
    private var outcome: Result<Value, any Error>?

    init(
        operation: String, body: @escaping @Sendable (Database) throws -> Value,
        continuation: CheckedContinuation<Value, any Error>
    ) {
        self.operation = operation
        self.body = body
        self.continuation = continuation
    }

    func run(_ db: Database) -> (any Error)? {
        do {
            outcome = .success(try body(db))
            return nil
        } catch let error as DatabaseError {
            let mapped = StoreError.from(error, operation: operation)
            outcome = .failure(mapped)
            return mapped
        } catch {
            // A store error, or the caller's own error thrown by an `update` transform: as is.
            outcome = .failure(error)
            return error
        }
    }

    func fail(_ error: any Error) {
        outcome = .failure(StoreError.from(error, operation: operation))
    }

    func forget() {
        outcome = nil
    }

    var hasFailed: Bool {
        if case .failure = outcome { return true }
        return false
    }

    func finish(commitError: (any Error)?) {
        switch (outcome, commitError) {
        case (.failure(let error)?, _):
            continuation.resume(throwing: error)
        case (_, let error?):
            continuation.resume(throwing: StoreError.from(error, operation: "committing \(operation)"))
        case (.success(let value)?, nil):
            continuation.resume(returning: value)
        case (nil, nil):
            continuation.resume(throwing: StoreError(.database, "\(operation) was not run"))
        }
    }
}

/// A ``WriteOperation`` with its value type erased, as the committer's queue holds it.
protocol PendingWrite: AnyObject, Sendable {
    /// Runs the body inside the current savepoint; returns its error, if any.
    func run(_ db: Database) -> (any Error)?
    /// Records a failure that is not the body's own (its batch could not start, for example).
    func fail(_ error: any Error)
    /// Drops the outcome of a run whose transaction was rolled back, before running it again.
    func forget()
    /// Whether the outcome is a failure.
    var hasFailed: Bool { get }
    /// Answers the caller: its own failure, else `commitError`, else its value.
    func finish(commitError: (any Error)?)
}
