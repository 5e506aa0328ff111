import PayRPCJSON
import PayRPCSchema

/// The `data` of the factory errors made from a title and a message: `generalError`,
/// `executePaymentError`, `amountLimitError`, `sameRecipientError`, `serviceUnavaiableError` and
/// `networkError` (`(String title, String message)` on Android, `:(NSString*)title
/// message:(NSString*)message` on iOS).
public struct TatraErrorData: JSONModel, Equatable {
    /// Which factory error this is.
    public var type: TatraErrorType
    /// The gRPC canonical status name.
    public var status: TatraErrorStatus
    /// Whether the error is fatal (the document's "Fatal Error": irrecoverable, the user can only
    /// exit the flow).
    public var fatal: Bool
    /// The title of the error screen (the factory's `title`).
    public var title: String
    /// The text of the error screen (the factory's `message`).
    public var message: String
}
