import PayRPCJSON
import PayRPCSchema

/// What a Masterpass authorization delegate is asked about: the request to answer and the payment.
public struct MasterpassQuestion: JSONModel, Equatable {
    /// The id to answer with.
    public var requestId: String
    /// The payment's `control`.
    public var control: String
    /// The payment's amount.
    public var amount: Amount
    /// Its currency.
    public var currency: String
}
