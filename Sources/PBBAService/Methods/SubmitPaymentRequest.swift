import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Submits a payment request to the merchant backend: returns its secureToken, code and
/// retrieval period, for `pbba.showPBBAPopup`.
///
/// Document sections 4.2.2 and 5 (`submitPaymentRequest:completion:`; the document leaves the
/// format to the merchant). The secureToken has 160 random bits; the code has six characters from
/// an alphabet without 0, O, 1, I and L. Sandbox magic amounts: `99.91` fails with
/// `requestGenerationFailed` (the code generation error pop-up), `99.92` with `networkError`.
public enum SubmitPaymentRequest: PBBAMethod {
    public static let name = "pbba.submitPaymentRequest"
    public static let traits: MethodTraits = [.mutates]

    /// The payment details.
    public struct Params: JSONModel, Equatable {
        /// The amount, a decimal string greater than zero.
        /// - Example: "10.00"
        public var amount: Amount
        /// ISO 4217 currency code (Pay by Bank app pays in GBP).
        /// - Example: "GBP"
        public var currency: CurrencyCode
        /// The merchant's reference for the payment.
        /// - MinLength: 1
        /// - MaxLength: 35
        public var reference: String
        /// The retrieval period in whole seconds; the sandbox's default (300) when absent.
        /// - Minimum: 1
        /// - Maximum: 86400
        public var retrievalExpiryInterval: Int?
    }

    public typealias Result = PaymentRequest
    public static let errors = [
        PBBAErrorKind.requestGenerationFailed.descriptor, PBBAErrorKind.networkError.descriptor,
    ]
}
