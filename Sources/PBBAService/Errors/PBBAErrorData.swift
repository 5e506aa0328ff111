import Foundation
import PayRPCJSON
import PayRPCSchema

/// The `data` member of every PBBA domain error: its type and gRPC status, and the fields of the
/// error that apply.
public struct PBBAErrorData: JSONModel, Equatable {
    /// The error's factory name (`requestExpired`, `paymentRequestNotFound`, ...).
    public var type: String
    /// The gRPC canonical status name (NOT_FOUND, FAILED_PRECONDITION, INVALID_ARGUMENT, UNAVAILABLE).
    public var status: String
    /// Whether the payment request can no longer succeed (the app should start a new one).
    public var fatal: Bool
    /// The payment request concerned (its non-secret id).
    public var requestId: String?
    /// The code concerned.
    public var brn: String?
    /// The pop-up concerned.
    public var popupId: String?
    /// The payment request's final status, when it already has one.
    public var currentStatus: PaymentStatus?
    /// When the request expired.
    public var expiredAt: Date?
    /// The kind of the pop-up found.
    public var popupKind: PopupKind?
    /// The kinds of pop-up the call works on.
    public var expectedKinds: [PopupKind]?
    /// The texts of the document's matching error pop-up, for `showPBBAErrorPopup`.
    public var suggestedPopup: SuggestedErrorPopup?
}
