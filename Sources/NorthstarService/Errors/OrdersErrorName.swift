/// The `name` and HTTP status of an Orders v2 error answer: what a northstar error kind stands for
/// (``NorthstarErrorKind/table``).
public struct OrdersErrorName: Sendable, Equatable {
    /// The error's `name` (`RESOURCE_NOT_FOUND`).
    public let name: String
    /// The HTTP status it comes with.
    public let httpStatus: Int

    /// 422: a value breaks a rule, or the state does not allow the call.
    public static let unprocessableEntity = OrdersErrorName(name: "UNPROCESSABLE_ENTITY", httpStatus: 422)
    /// 404: nothing has that id.
    public static let resourceNotFound = OrdersErrorName(name: "RESOURCE_NOT_FOUND", httpStatus: 404)
    /// 500: the processor failed.
    public static let internalServerError = OrdersErrorName(name: "INTERNAL_SERVER_ERROR", httpStatus: 500)
    /// 503: the API did not answer.
    public static let serviceUnavailable = OrdersErrorName(name: "SERVICE_UNAVAILABLE", httpStatus: 503)
    /// 401: the client is not configured (no credentials).
    public static let authenticationFailure = OrdersErrorName(name: "AUTHENTICATION_FAILURE", httpStatus: 401)
}
