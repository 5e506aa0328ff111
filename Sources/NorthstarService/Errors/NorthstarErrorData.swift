import PayRPCJSON
import PayRPCSchema

/// The `data` of every northstar error: Orders v2's error body (`name`, `message`, `debug_id`,
/// `details`, `links`) plus `type`, the issue that names the error.
public struct NorthstarErrorData: JSONModel, Equatable {
    /// The error's issue code: `INSTRUMENT_DECLINED`, `CARD_EXPIRED`, ... (what
    /// `sandbox.failNext` accepts as the error's name).
    public var type: String
    /// The Orders v2 error name: `UNPROCESSABLE_ENTITY`, `RESOURCE_NOT_FOUND`, ...
    public var name: String
    /// The HTTP status Orders v2 answers this error with.
    public var httpStatus: Int
    /// A human-readable summary.
    public var message: String
    /// The id to quote to support; drawn from the profile's seeded stream.
    /// - Key: debug_id
    public var debugId: String
    /// The problems, one per field and issue.
    public var details: [ErrorDetail]
    /// Links (`payer-action` for 3-D Secure).
    public var links: [LinkDescription]?
    /// The order the error is about, when it goes on (`PAYER_ACTION_REQUIRED`: the order to
    /// complete 3-D Secure for, then to execute again by `{orderID}`).
    public var orderID: OrdersV2ID?
    /// That order's status (`PAYER_ACTION_REQUIRED`). Not `status`: that name is the canonical
    /// status in the errors of the other services.
    public var orderStatus: OrderStatus?
}
