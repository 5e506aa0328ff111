import Foundation
import PayRPCJSON
import PayRPCSchema

/// A payment request created by the merchant backend (document section 4.2.2; the `Transaction`
/// of the sample code in section 5): what the app passes on to `showPBBAPopup`.
public struct PaymentRequest: JSONModel, Equatable {
    /// The unique token that identifies the payment request (Table 4 `secureToken`): 160 random
    /// bits, hex. A secret: the server keeps only a keyed hash of it.
    public var secureToken: IssuedSecureToken
    /// The six-character code that identifies the request during the retrieval period (Table 4
    /// `brn`), from an alphabet without 0, O, 1, I and L.
    /// - Example: "K7MXQ2"
    public var brn: IssuedBRN
    /// The retrieval period in whole seconds (`Transaction.retrievalExpiryInterval`): pass it as
    /// `expiryInterval` to `showPBBAPopup`.
    /// - Minimum: 1
    public var retrievalExpiryInterval: Int
    /// When the retrieval period ends.
    public var expiresAt: Date
    /// A non-secret id of the request, carried by the notifications about it.
    public var requestId: RequestID
}
