import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The requirements of the generated ``PBBAHandlers``: one per method, each handing the call to
/// the part of the service that does the work (the library side in `PBBAService+Library.swift`,
/// the merchant backend and the bank app in `PBBAService+Backend.swift`, the pop-ups in the
/// ``PopupRegistry``).
extension PBBAService {
    /// `pbba.isCFIAppAvailable`.
    public func isCFIAppAvailable(_ params: NoParams, _ context: RequestContext) async throws -> Bool {
        try await isCFIAppAvailable(context)
    }

    /// `pbba.showPBBAPopup`.
    public func showPBBAPopup(_ params: ShowPBBAPopup.Params, _ context: RequestContext) async throws -> PBBAPopup {
        try await showPopup(params, context)
    }

    /// `pbba.showPBBAErrorPopup`.
    public func showPBBAErrorPopup(_ params: ShowPBBAErrorPopup.Params, _ context: RequestContext) throws -> PBBAErrorPopup {
        showErrorPopup(params, context)
    }

    /// `pbba.getCustomUXConfigurations`.
    public func getCustomUXConfigurations(
        _ params: GetCustomUXConfigurations.Params,
        _ context: RequestContext
    ) throws -> CustomUXLayout {
        try customUXConfiguration(params)
    }

    /// `pbba.submitPaymentRequest`.
    public func submitPaymentRequest(_ params: SubmitPaymentRequest.Params, _ context: RequestContext) async throws
        -> PaymentRequest
    {
        try await createPaymentRequest(params, context)
    }

    /// `pbba.getPaymentStatus`.
    public func getPaymentStatus(_ params: GetPaymentStatus.Params, _ context: RequestContext) async throws -> PaymentStatusInfo {
        try await paymentStatus(params, context)
    }

    /// `sandbox.pbba.approvePayment`.
    public func approvePayment(_ params: PaymentTarget, _ context: RequestContext) async throws -> PaymentStatusInfo {
        try await decide(params, as: .completed, context)
    }

    /// `sandbox.pbba.declinePayment`.
    public func declinePayment(_ params: PaymentTarget, _ context: RequestContext) async throws -> PaymentStatusInfo {
        try await decide(params, as: .declined, context)
    }

    /// `sandbox.pbba.setBankAppsInstalled`.
    public func setBankAppsInstalled(_ params: SetBankAppsInstalled.Params, _ context: RequestContext) async throws
        -> BankAppsState
    {
        try await setBankApps(params, context)
    }

    /// `sandbox.pbba.closePopup`.
    public func closePopup(_ params: PopupReference, _ context: RequestContext) throws -> NoResult {
        try registry.closeByUser(params.popupId)
        return NoResult()
    }

    /// `sandbox.pbba.tapTryAgain`.
    public func tapTryAgain(_ params: PopupReference, _ context: RequestContext) throws -> NoResult {
        try registry.tapTryAgain(params.popupId)
        return NoResult()
    }

    /// `pbba.dismissPopup`.
    public func dismissPopup(_ params: PopupReference, _ context: RequestContext) throws -> NoResult {
        _ = try registry.dismiss(params.popupId, by: context.connection.id)
        return NoResult()
    }

    /// `sandbox.pbba.tapOpenBankingApp`.
    public func tapOpenBankingApp(_ params: PopupReference, _ context: RequestContext) async throws -> BankAppLaunch {
        try await openBankingAppFromPopup(params)
    }

    /// `sandbox.pbba.tapMoreAbout`.
    public func tapMoreAbout(_ params: PopupReference, _ context: RequestContext) throws -> MoreAboutPopup {
        try openMoreAbout(params, context)
    }

    /// `sandbox.pbba.registerExternalRequest`.
    public func registerExternalRequest(
        _ params: RegisterExternalRequest.Params,
        _ context: RequestContext
    ) async throws -> PaymentStatusInfo {
        try await registerExternal(params, context)
    }
}
