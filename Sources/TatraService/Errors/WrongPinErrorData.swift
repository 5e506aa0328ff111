import PayRPCJSON
import PayRPCSchema

/// The `data` of `wrongPinError(String title, boolean applicationBlocked)` (iOS
/// `wrongPinError:(NSNumber*)applicationBlocked title:(NSString*)title`).
public struct WrongPinErrorData: JSONModel, Equatable {
    /// Always `wrongPin`.
    public var type: TatraErrorType
    /// `UNAUTHENTICATED` while the user may try again, `FAILED_PRECONDITION` once blocked.
    public var status: TatraErrorStatus
    /// True exactly when the application is blocked: then no PIN, not even the right one, is
    /// accepted any more.
    public var fatal: Bool
    /// The title of the error screen (the factory's `title`).
    public var title: String
    /// Whether too many wrong PINs have blocked the application (the factory's `applicationBlocked`).
    public var applicationBlocked: Bool
}
