import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// A profile's SDK settings and 1Click state (namespace `dotpay`, key `settings`).
struct DotpaySettings: JSONModel, ProfileDocument, Equatable {
    static let namespace = "dotpay"
    static let key = "settings"

    /// `DotPay.defaultLanguage`.
    var language: String = "pl"
    /// `DotPay.debugMode`: the test system.
    var debugMode: Bool = false
    /// `setShowDetailsOnSummaryScreen`.
    var showDetailsOnSummaryScreen: Bool = false
    /// `DPOneClickManager.enabled`.
    var oneClickEnabled: Bool = true
    /// `DPOneClickManager.useInternalCards`.
    var useInternalCards: Bool = true
    /// `DPOneClickManager.treatsCvvAsPassword`.
    var treatsCvvAsPassword: Bool = false
    /// The external customer id (`configureWithExternalCards … forCustomerId:`), if set.
    var customerId: String? = nil
    /// The default 1Click card.
    var defaultCardId: String? = nil
    /// The channel of the last payment (`useLastChannelSelection`).
    var lastChannelId: Int? = nil
    /// Whether the buyer joined the Masterpass wallet (its authorization was created).
    var masterpassRegistered: Bool = false
    /// The shop's PIN, sealed under the server key (`sandbox.dotpay.setShopPin`): what URLC
    /// notifications are signed with. Never in clear.
    var sealedShopPin: String? = nil

    /// The settings as the app reads them.
    var view: SDKSettings {
        SDKSettings(
            debugMode: debugMode, system: system, language: language, showDetailsOnSummaryScreen: showDetailsOnSummaryScreen,
            oneClick: OneClickSettings(
                enabled: oneClickEnabled, useInternalCards: useInternalCards,
                treatsCvvAsPassword: treatsCvvAsPassword, customerId: customerId))
    }

    /// `test` in debug mode, else `production`.
    var system: String { debugMode ? "test" : "production" }
}
