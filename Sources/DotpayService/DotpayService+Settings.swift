import PayRPCCore
import PayRPCJSON
import PayRPCSchema

extension DotpayService {
    /// `dotpay.getLanguageList`.
    public func getLanguageList(_ params: NoParams, _ context: RequestContext) async throws -> [String] {
        sandbox.languages
    }

    /// `dotpay.setDefaultLanguage`.
    public func setDefaultLanguage(_ params: SetDefaultLanguage.Params, _ context: RequestContext) async throws -> NoResult {
        guard sandbox.languages.contains(params.language) else {
            throw DotpayError(
                .languageNotSupported, "\(params.language) is not one of \(sandbox.languages.joined(separator: ", "))")
        }
        return try await set(\.language, to: params.language, context)
    }

    /// `dotpay.setDebugMode`.
    public func setDebugMode(_ params: SetDebugMode.Params, _ context: RequestContext) async throws -> NoResult {
        try await set(\.debugMode, to: params.debugMode, context)
    }

    /// `dotpay.getSettings`.
    public func getSettings(_ params: NoParams, _ context: RequestContext) async throws -> SDKSettings {
        try await settings(context).view
    }

    /// `dotpay.getSdkVersion`.
    public func getSdkVersion(_ params: NoParams, _ context: RequestContext) async throws -> String { sandbox.sdkVersion }

    /// `dotpay.getCurrencyList`.
    public func getCurrencyList(_ params: NoParams, _ context: RequestContext) async throws -> [String] { sandbox.currencies }

    /// `dotpay.setShowDetailsOnSummaryScreen`.
    public func setShowDetailsOnSummaryScreen(
        _ params: SetShowDetailsOnSummaryScreen.Params,
        _ context: RequestContext
    ) async throws -> NoResult {
        try await set(\.showDetailsOnSummaryScreen, to: params.show, context)
    }

    /// `dotpay.setOneClickEnabled`.
    public func setOneClickEnabled(_ params: SetOneClickEnabled.Params, _ context: RequestContext) async throws -> NoResult {
        try await set(\.oneClickEnabled, to: params.enabled, context)
    }

    /// `dotpay.setUseInternalCards`.
    public func setUseInternalCards(_ params: SetUseInternalCards.Params, _ context: RequestContext) async throws -> NoResult {
        try await set(\.useInternalCards, to: params.useInternalCards, context)
    }

    /// `dotpay.setTreatsCvvAsPassword`.
    public func setTreatsCvvAsPassword(
        _ params: SetTreatsCvvAsPassword.Params,
        _ context: RequestContext
    ) async throws -> NoResult {
        try await set(\.treatsCvvAsPassword, to: params.treatsCvvAsPassword, context)
    }

    /// Sets one of the profile's settings and answers `null`.
    func set<Value: Sendable>(
        _ setting: WritableKeyPath<DotpaySettings, Value> & Sendable, to value: Value,
        _ context: RequestContext
    ) async throws -> NoResult {
        try await updateSettings(context) { $0[keyPath: setting] = value }
        return NoResult()
    }
}
