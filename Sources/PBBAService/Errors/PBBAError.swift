import Foundation
import PayRPCServiceKit

/// A PBBA domain error: one of ``PBBAErrorKind`` and its ``PBBAErrorData``. Converted to the wire
/// error at the kit's one boundary (``ServiceError``).
public typealias PBBAError = ServiceError<PBBAErrorKind>

extension ServiceError where Kind == PBBAErrorKind {
    /// The error `kind` with the fields `fill` sets.
    init(_ kind: PBBAErrorKind, _ fill: (inout PBBAErrorData) -> Void = { _ in }) {
        var data = PBBAErrorData(type: kind.rawValue, status: kind.status.rawValue, fatal: kind.fatal)
        fill(&data)
        self.init(kind, data: data)
    }

    // MARK: The errors

    /// The texts of the "Request expired" error pop-up (section 3.5.1.5).
    public static let requestExpiredPopup = SuggestedErrorPopup(
        errorTitle: "Request expired", errorMessage: "Tap on the button below to generate a new code.")
    /// The texts of the code generation error pop-up (section 3.5.1.6).
    public static let requestGenerationPopup = SuggestedErrorPopup(
        errorTitle: "There has been a problem",
        errorMessage: "We were unable to generate a request at this time. Tap on the button below to try again.")
    /// The texts for the network error pop-up (section 3.5.1.4; its text is not legible in the
    /// document, so these are the gateway's words).
    public static let networkErrorPopup = SuggestedErrorPopup(
        errorTitle: "Network error", errorMessage: "Check your connection. Tap on the button below to try again.")

    /// No payment request has that secureToken.
    public static func paymentRequestNotFound() -> PBBAError { PBBAError(.paymentRequestNotFound) }

    /// No payment request in its retrieval period has that code.
    public static func brnNotFound(_ brn: String) -> PBBAError { PBBAError(.brnNotFound) { $0.brn = brn } }

    /// The request's retrieval period has passed.
    public static func requestExpired(requestId: String, brn: String, expiredAt: Date) -> PBBAError {
        PBBAError(.requestExpired) {
            $0.requestId = requestId
            $0.brn = brn
            $0.currentStatus = .expired
            $0.expiredAt = expiredAt
            $0.suggestedPopup = requestExpiredPopup
        }
    }

    /// The Consumer already approved or declined the request.
    public static func paymentAlreadyFinished(requestId: String, brn: String, status: PaymentStatus) -> PBBAError {
        PBBAError(.paymentAlreadyFinished) {
            $0.requestId = requestId
            $0.brn = brn
            $0.currentStatus = status
        }
    }

    /// The device has no PBBA-enabled bank app, so `zapp://` cannot be opened.
    public static func noBankAppInstalled() -> PBBAError { PBBAError(.noBankAppInstalled) }

    /// The `brn` given with a secureToken is not that request's code.
    public static func brnMismatch(_ brn: String, requestId: String) -> PBBAError {
        PBBAError(.brnMismatch) {
            $0.requestId = requestId
            $0.brn = brn
        }
    }

    /// No pop-up with that id is on screen.
    public static func popupNotFound(_ popupId: String) -> PBBAError {
        PBBAError(.popupNotFound) { $0.popupId = popupId }
    }

    /// The pop-up has no such button (e.g. "Try again" on a payment pop-up).
    public static func wrongPopupKind(_ popupId: String, kind: PopupKind, expected: [PopupKind]) -> PBBAError {
        PBBAError(.wrongPopupKind) {
            $0.popupId = popupId
            $0.popupKind = kind
            $0.expectedKinds = expected
        }
    }

    /// The backend could not generate a request (sandbox: amount 99.91).
    public static func requestGenerationFailed() -> PBBAError {
        PBBAError(.requestGenerationFailed) { $0.suggestedPopup = requestGenerationPopup }
    }

    /// The backend could not be reached (sandbox: amount 99.92).
    public static func networkError() -> PBBAError {
        PBBAError(.networkError) { $0.suggestedPopup = networkErrorPopup }
    }

    /// A request with that secureToken is already known.
    public static func secureTokenInUse(requestId: String) -> PBBAError {
        PBBAError(.secureTokenInUse) { $0.requestId = requestId }
    }

    /// A request in its retrieval period already has that code.
    public static func brnInUse(_ brn: String) -> PBBAError { PBBAError(.brnInUse) { $0.brn = brn } }
}
