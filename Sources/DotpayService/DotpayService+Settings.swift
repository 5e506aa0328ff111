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
            throw DotpayError(.languageNotSupported, "\(params.language) is not one of \(sandbox.languages.joined(separator: ", "))")
        }
        let language = params.language
        try await updateSettings(context) { $0.language = language }
        return NoResult()
    }

    /// `dotpay.setDebugMode`.
    public func setDebugMode(_ params: SetDebugMode.Params, _ context: RequestContext) async throws -> NoResult {
        let debugMode = params.debugMode
        try await updateSettings(context) { $0.debugMode = debugMode }
        return NoResult()
    }

    /// `dotpay.getSdkVersion`.
    public func getSdkVersion(_ params: NoParams, _ context: RequestContext) async throws -> String { sandbox.sdkVersion }

    /// `dotpay.getCurrencyList`.
    public func getCurrencyList(_ params: NoParams, _ context: RequestContext) async throws -> [String] { sandbox.currencies }

    /// `dotpay.setShowDetailsOnSummaryScreen`.
    public func setShowDetailsOnSummaryScreen(_ params: SetShowDetailsOnSummaryScreen.Params,
                                              _ context: RequestContext) async throws -> NoResult {
        let show = params.show
        try await updateSettings(context) { $0.showDetailsOnSummaryScreen = show }
        return NoResult()
    }

    /// `dotpay.setOneClickEnabled`.
    public func setOneClickEnabled(_ params: SetOneClickEnabled.Params, _ context: RequestContext) async throws -> NoResult {
        let enabled = params.enabled
        try await updateSettings(context) { $0.oneClickEnabled = enabled }
        return NoResult()
    }

    /// `dotpay.setUseInternalCards`.
    public func setUseInternalCards(_ params: SetUseInternalCards.Params, _ context: RequestContext) async throws -> NoResult {
        let use = params.useInternalCards
        try await updateSettings(context) { $0.useInternalCards = use }
        return NoResult()
    }

    /// `dotpay.setTreatsCvvAsPassword`.
    public func setTreatsCvvAsPassword(_ params: SetTreatsCvvAsPassword.Params,
                                       _ context: RequestContext) async throws -> NoResult {
        let treats = params.treatsCvvAsPassword
        try await updateSettings(context) { $0.treatsCvvAsPassword = treats }
        return NoResult()
    }
}
