import PayRPCJSON
import PayRPCSchema

/// Where an order is (Orders v2 `status`).
public enum OrderStatus: String, JSONModel {
    /// Created; waiting for a payment source.
    case created = "CREATED"
    /// A card was accepted for it (`northstar.validate`, or 3-D Secure completed).
    case approved = "APPROVED"
    /// The buyer must act first (3-D Secure): follow the `payer-action` link.
    case payerActionRequired = "PAYER_ACTION_REQUIRED"
    /// Paid: captured, or authorized for a later capture.
    case completed = "COMPLETED"
    /// Voided: it can no longer be paid.
    case voided = "VOIDED"
}
