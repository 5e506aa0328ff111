#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// The setup data of the PayKey flows: whether the service is activated, how a payment's
/// description and the recipient's phone are validated, and the amount limits.
///
/// One JSON shape for Android `TBSetupData` and iOS `TATRASetupData` (with its superclass
/// `PKSetupData` and `PKAmountValues`).
public struct SetupData: JSONModel, Equatable {
    /// Whether PayKey is activated for this user. Android `TBSetupData.isActivated`, iOS
    /// `TATRASetupData.isActivated`.
    public var isActivated: Bool
    /// The regular expression (ICU / java.util.regex syntax) a payment's reference must match
    /// as a whole. Android `descriptionValidationRegex`, iOS `descriptionValidationRegex`.
    public var descriptionValidationRegex: String
    /// The most characters (UTF-16 code units, as Java `String.length()` and `NSString.length`
    /// count them) a payment's reference may have. Android `int descriptionValidationLength`,
    /// iOS `NSNumber* descriptionValidationLength`.
    /// - Minimum: 0
    public var descriptionValidationLength: Int
    /// The regular expression the recipient's phone number must match as a whole. Android
    /// `phoneValidationRegex`, iOS `phoneValidationRegex`.
    public var phoneValidationRegex: String
    /// The smallest amount a payment may have, inclusive. Android `BigDecimal minTransactionAmount`,
    /// iOS `PKSetupData.makePaymentValues.minValue` (`PKAmountValues`).
    /// - Example: "0.01"
    public var minTransactionAmount: Amount
    /// The largest amount a payment may have, inclusive. Android `BigDecimal maxTransactionAmount`,
    /// iOS `PKSetupData.makePaymentValues.maxValue` (`PKAmountValues`).
    /// - Example: "5000.00"
    public var maxTransactionAmount: Amount
    /// The same limits nested as iOS reads them: `PKSetupData.makePaymentValues`
    /// (`PKAmountValues {minValue, maxValue}`), served alongside the flat members.
    public var makePaymentValues: AmountValues
    /// Where the bank app returns to after the flow. Android `Uri redirectionUri`, iOS
    /// `NSString* redirectionUri`.
    public var redirectionUri: URL?
}
