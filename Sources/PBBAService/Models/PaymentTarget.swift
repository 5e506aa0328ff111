import PayRPCJSON
import PayRPCSchema

/// The payment request a sandbox bank app acts on: by its secureToken (the bank app on the same
/// device, opened through `zapp://<secureToken>`) or by its code (the bank app on another device,
/// where the Consumer types the code: E-COMM). Give one of them; with both, they must match.
public struct PaymentTarget: JSONModel, Equatable {
    /// The request's secureToken.
    public var secureToken: SecureToken?
    /// The request's six-character code, as typed into the bank app on the other device.
    public var brn: BRN?
}
