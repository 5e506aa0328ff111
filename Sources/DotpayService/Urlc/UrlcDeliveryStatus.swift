import PayRPCJSON
import PayRPCSchema

/// Where a URLC notification is on its way to the shop.
public enum UrlcDeliveryStatus: String, JSONModel, CaseIterable {
    /// Not sent yet, or no answer came (network failures past the retries): sent again at the next
    /// start or `sandbox.dotpay.deliverUrlc`.
    case waiting
    /// No shop PIN to sign it with: sent once `sandbox.dotpay.setShopPin` sets one.
    case noPin
    /// The shop answered something other than HTTP 200 with `OK`: sent again at the next start or
    /// `sandbox.dotpay.deliverUrlc`.
    case shopError
    /// The shop answered HTTP 200 with `OK`.
    case delivered
}
