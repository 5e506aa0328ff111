import PayRPCSync

/// The Masterpass authorizations that wait for the app's answer: a payment that asked
/// (`masterpassPaymentShouldCreateAuthorizationOn` / `…ShouldAuthorizeUserPaymentOn`) waits here
/// until `dotpay.masterpass.didCreateAuthorization` / `didAuthorizeUser` answers its request id.
///
/// Each waiting payment is a call's task: when the call is cancelled (`$/cancelRequest`, its
/// deadline, its connection closing) the wait ends at once and the payment is not made.
final class MasterpassAuthorizations: Sendable {
    /// Which delegate method asked.
    enum Kind: Sendable, Equatable {
        /// `masterpassPaymentShouldCreateAuthorizationOn`: the buyer joins the wallet.
        case createAuthorization
        /// `masterpassPaymentShouldAuthorizeUserPaymentOn`: a payment of a buyer in the wallet.
        case authorizeUser
    }

    /// The app's answer (`didCreateAuthorization:andError:` / `didAuthorizeUser:andError:`).
    struct Answer: Sendable, Equatable {
        /// Whether the authorization succeeded.
        var successful: Bool
        /// The app's error, when it gave one.
        var error: String?
    }

    private enum Waiter {
        /// Registered; the continuation is not stored yet.
        case registered(Kind)
        /// Waiting for the answer.
        case waiting(Kind, CheckedContinuation<Answer?, Never>)
        /// Cancelled before the continuation was stored.
        case cancelled
    }

    private let waiters = Lock<[String: Waiter]>([:])

    /// Waits for the answer to request `id` of `kind`, after `ask` pushed the question.
    /// - Throws: `CancellationError` when the call is cancelled first.
    func wait(for id: String, profile: String, kind: Kind, ask: @Sendable () -> Void) async throws -> Answer {
        let key = Self.key(id, profile)
        waiters.withLock { $0[key] = .registered(kind) }
        let answer: Answer? = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Answer?, Never>) in
                let stored = waiters.withLock { waiters -> Bool in
                    guard case .registered = waiters[key] else {
                        waiters[key] = nil
                        return false
                    }
                    waiters[key] = .waiting(kind, continuation)
                    return true
                }
                if stored { ask() } else { continuation.resume(returning: nil) }
            }
        } onCancel: {
            let continuation = waiters.withLock { waiters -> CheckedContinuation<Answer?, Never>? in
                switch waiters[key] {
                case .registered?:
                    waiters[key] = .cancelled
                    return nil
                case .waiting(_, let continuation)?:
                    waiters[key] = nil
                    return continuation
                case .cancelled?, nil:
                    return nil
                }
            }
            continuation?.resume(returning: nil)
        }
        guard let answer else { throw CancellationError() }
        return answer
    }

    /// Hands the app's answer to the payment waiting for request `id` of `kind`; false when none
    /// waits.
    func answer(_ id: String, profile: String, kind: Kind, _ answer: Answer) -> Bool {
        let key = Self.key(id, profile)
        let continuation = waiters.withLock { waiters -> CheckedContinuation<Answer?, Never>? in
            guard case .waiting(let waiting, let continuation)? = waiters[key], waiting == kind else { return nil }
            waiters[key] = nil
            return continuation
        }
        continuation?.resume(returning: answer)
        return continuation != nil
    }

    private static func key(_ id: String, _ profile: String) -> String { profile + "\u{0}" + id }
}
