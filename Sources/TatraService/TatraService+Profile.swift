import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCStore

extension TatraService {
    /// The profile's tatra state (defaults when it has none).
    func profileState(_ context: RequestContext) async throws -> TatraProfileState {
        try await book.profileState(context.profile)
    }

    /// Changes the profile's tatra state atomically and durably; `body` returns what happened.
    /// Domain errors are thrown after the write, never from `body`, so that a counted wrong PIN
    /// is on disk before the client hears of it.
    func updateProfileState<R: Sendable>(
        _ context: RequestContext, _ body: @escaping @Sendable (inout TatraProfileState) -> R
    ) async throws -> R {
        try await book.updateProfileState(context.profile, body)
    }

    /// What checking a PIN against the profile's counter did.
    enum PinCheck: Sendable, Equatable {
        /// Right PIN; the counter is back to zero.
        case accepted
        /// Wrong PIN; `blocked` when it was the last allowed.
        case rejected(blocked: Bool)
        /// The application was already blocked; nothing was counted.
        case blocked
    }

    /// Checks `pincode`, counting a wrong one against the profile (blocking at the limit).
    func checkPin(_ pincode: String, in state: inout TatraProfileState) -> PinCheck {
        if state.blocked { return .blocked }
        guard sandbox.pin.accepts(pincode) else {
            state.wrongPinAttempts += 1
            if state.wrongPinAttempts >= sandbox.wrongPinLimit { state.blocked = true }
            return .rejected(blocked: state.blocked)
        }
        state.wrongPinAttempts = 0
        return .accepted
    }

    /// The `wrongPinError` of a refused PIN.
    func wrongPinError(blocked: Bool) -> TatraError {
        TatraError.wrongPin(title: sandbox.texts.wrongPin, applicationBlocked: blocked)
    }

    /// `sandbox.tatra.resetProfile`.
    public func sandboxResetProfile(_ params: NoParams, _ context: RequestContext) async throws -> NoResult {
        try await book.resetProfile(context.profile)
        return NoResult()
    }
}
