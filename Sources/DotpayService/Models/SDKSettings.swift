import PayRPCJSON
import PayRPCSchema

/// The SDK's settings as the app reads them back: the `DotPay` singleton's properties and the
/// `DPOneClickManager`'s.
public struct SDKSettings: JSONModel, Equatable {
    /// `DotPay.debugMode`: the test system when true.
    public var debugMode: Bool
    /// The system the settings choose, `test` or `production` (*wybór systemu*).
    public var system: String
    /// `DotPay.defaultLanguage`.
    public var language: String
    /// `setShowDetailsOnSummaryScreen:`.
    public var showDetailsOnSummaryScreen: Bool
    /// The `DPOneClickManager`'s settings.
    public var oneClick: OneClickSettings
}

/// `DPOneClickManager`'s settings.
public struct OneClickSettings: JSONModel, Equatable {
    /// `enabled`: 1Click payments are on.
    public var enabled: Bool
    /// `useInternalCards`: the cards remembered in the SDK are shown.
    public var useInternalCards: Bool
    /// `treatsCvvAsPassword`: the CVV field is masked.
    public var treatsCvvAsPassword: Bool
    /// The external customer (`configureWithExternalCards … forCustomerId:`), when one is set.
    public var customerId: String?
}
