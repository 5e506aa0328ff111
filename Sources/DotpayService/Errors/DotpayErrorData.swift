import PayRPCJSON
import PayRPCSchema

/// The `data` of every dotpay error: its type, gRPC status, and the ids concerned.
public struct DotpayErrorData: JSONModel, Equatable {
    /// The error's name (`channelUnavailable`, `cardRefused`, ...), which `sandbox.failNext`
    /// accepts too.
    public var type: String
    /// The gRPC canonical status name.
    public var status: String
    /// What happened, for people.
    public var detail: String
    /// The channel concerned.
    public var channelId: Int?
    /// The card concerned.
    public var creditCardId: String?
    /// The payment concerned.
    public var paymentId: String?
    /// The `control` concerned.
    public var control: String?
}
