import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import FoundationEssentials

extension TatraService {
    /// `tatra.authorize`: a right PIN authorizes the profile for the authorization lifetime.
    public func authorize(_ params: Authorize.Params, _ context: RequestContext) async throws -> NoResult {
        let now = context.now
        let lifetime = sandbox.authorizationLifetime
        let check = try await updateProfileState(context) { state in
            let check = self.checkPin(params.pincode, in: &state)
            if check == .accepted {
                state.authorizedUntil = now.addingTimeInterval(Double(lifetime.components.seconds))
                state.everAuthorized = true
            }
            return check
        }
        switch check {
        case .accepted: return NoResult()
        case .rejected(let blocked): throw wrongPinError(blocked: blocked)
        case .blocked: throw wrongPinError(blocked: true)
        }
    }

    /// `tatra.fetchBalance`: the balance minus what the profile has paid, once authorized.
    public func fetchBalance(_ params: NoParams, _ context: RequestContext) async throws -> BalanceData {
        let state = try await requireAuthorization(context)
        return BalanceData(balance: sandbox.balance.subtracting(state.paid) ?? sandbox.balance, dueDate: sandbox.dueDate)
    }

    /// `tatra.getIban`, once authorized.
    public func getIban(_ params: NoParams, _ context: RequestContext) async throws -> String {
        _ = try await requireAuthorization(context)
        return sandbox.iban
    }

    /// The profile's state when its authorization is valid now; else `authRequiredError`
    /// (`showConditions` until the profile has authorized once).
    private func requireAuthorization(_ context: RequestContext) async throws -> TatraProfileState {
        let state = try await profileState(context)
        guard state.isAuthorized(at: context.now) else {
            throw TatraError.authRequired(title: sandbox.texts.authRequired, showConditions: !state.everAuthorized)
        }
        return state
    }
}
