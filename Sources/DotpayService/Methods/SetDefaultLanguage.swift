import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Sets the flow's language for the profile (`DotPay.defaultLanguage`); one of `dotpay.getLanguageList`.
public enum SetDefaultLanguage: DotpayMethod {
    public static let name = "dotpay.setDefaultLanguage"
    public static let traits: MethodTraits = [.mutates]

    /// The params.
    public struct Params: JSONModel, Equatable {
        /// The language code.
        /// - Example: "en"
        public var language: LanguageCode
    }

    public typealias Result = NoResult
    public static let errors = [DotpayErrorKind.languageNotSupported.descriptor]
}
