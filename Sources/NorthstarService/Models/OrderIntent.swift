import PayRPCJSON
import PayRPCSchema

/// What happens to the payment once the buyer has paid (Orders v2 `intent`).
public enum OrderIntent: String, JSONModel {
    /// The merchant takes the money at once.
    case capture = "CAPTURE"
    /// The money is held; the merchant captures it later.
    case authorize = "AUTHORIZE"
}
