import PayRPCJSON
import PayRPCSchema

/// One problem of a request (Orders v2 `error_details`): which field, which issue.
public struct ErrorDetail: JSONModel, Equatable {
    /// The field concerned, as a JSON Pointer into the call's params (`/card/expiry`).
    public var field: String?
    /// The field's value when it is not a secret (never a card number or security code).
    public var value: String?
    /// Where the field is in the Orders v2 API's request (`body`, `path` or `query`), as the API
    /// says; absent on the sandbox, whose fields point into the call's params.
    public var location: String?
    /// The Orders v2 issue code (`INSTRUMENT_DECLINED`, `DECIMAL_PRECISION`, ...).
    /// - Example: "INSTRUMENT_DECLINED"
    public var issue: String
    /// What the issue means, in words.
    public var description: String
}
