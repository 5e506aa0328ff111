import PayRPCJSON
import PayRPCSchema

/// The three payment types of the app's Payment screen.
public enum PaymentType: String, JSONModel, CaseIterable {
    /// Cash: journaled at once, never handed to the Payment Application, posted to `/payments/` only.
    case cash
    /// Credit card: `Payment_Service=010`.
    case creditCard
    /// Account (direct debit): `Payment_Service=060`.
    case account

    /// The `Payment_Service` value of the hand-off URL; nil for cash.
    var paymentService: String? {
        switch self {
        case .cash: nil
        case .creditCard: "010"
        case .account: "060"
        }
    }
}
