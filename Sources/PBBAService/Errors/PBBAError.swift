import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A PBBA domain error: a stable code in -33100...-33199, a short unique title, and
/// ``PBBAErrorData``. Converted to the wire error at one boundary (``RPCErrorConvertible``).
public struct PBBAError: Error, Sendable, Equatable, RPCErrorConvertible {
    /// The stable code.
    public let code: RPCError.Code
    /// A short title, unique within the service.
    public let message: String
    /// The typed detail.
    public let data: PBBAErrorData

    init(_ descriptor: RPCErrorDescriptor, _ data: PBBAErrorData) {
        self.code = descriptor.code
        self.message = descriptor.message
        self.data = data
    }

    /// The wire form: `data` is ``PBBAErrorData`` written by its generated codec.
    public var rpcError: RPCError {
        var writer = JSONWriter(capacity: 256)
        data.encode(to: &writer)
        return RPCError(code, message, encodedData: writer.bytes)
    }

    /// Equal when code, message and data are.
    public static func == (lhs: PBBAError, rhs: PBBAError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.data == rhs.data
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
    public static func paymentRequestNotFound() -> PBBAError {
        PBBAError(Descriptors.paymentRequestNotFound,
                  PBBAErrorData(type: "paymentRequestNotFound", status: "NOT_FOUND", fatal: true))
    }

    /// No payment request in its retrieval period has that code.
    public static func brnNotFound(_ brn: String) -> PBBAError {
        PBBAError(Descriptors.brnNotFound,
                  PBBAErrorData(type: "brnNotFound", status: "NOT_FOUND", fatal: true, brn: brn))
    }

    /// The request's retrieval period (or its pop-up's expiry interval) has passed.
    public static func requestExpired(requestId: String, brn: String, expiredAt: Date) -> PBBAError {
        PBBAError(Descriptors.requestExpired,
                  PBBAErrorData(type: "requestExpired", status: "FAILED_PRECONDITION", fatal: true,
                                requestId: requestId, brn: brn, currentStatus: .expired, expiredAt: expiredAt,
                                suggestedPopup: requestExpiredPopup))
    }

    /// The Consumer already approved or declined the request.
    public static func paymentAlreadyFinished(requestId: String, brn: String, status: PaymentStatus) -> PBBAError {
        PBBAError(Descriptors.paymentAlreadyFinished,
                  PBBAErrorData(type: "paymentAlreadyFinished", status: "FAILED_PRECONDITION", fatal: true,
                                requestId: requestId, brn: brn, currentStatus: status))
    }

    /// The device has no PBBA-enabled bank app, so `zapp://` cannot be opened.
    public static func noBankAppInstalled() -> PBBAError {
        PBBAError(Descriptors.noBankAppInstalled,
                  PBBAErrorData(type: "noBankAppInstalled", status: "FAILED_PRECONDITION", fatal: false))
    }

    /// The `brn` given with a secureToken is not that request's code.
    public static func brnMismatch(_ brn: String, requestId: String) -> PBBAError {
        PBBAError(Descriptors.brnMismatch,
                  PBBAErrorData(type: "brnMismatch", status: "INVALID_ARGUMENT", fatal: false,
                                requestId: requestId, brn: brn))
    }

    /// No pop-up with that id is on screen.
    public static func popupNotFound(_ popupId: String) -> PBBAError {
        PBBAError(Descriptors.popupNotFound,
                  PBBAErrorData(type: "popupNotFound", status: "NOT_FOUND", fatal: false, popupId: popupId))
    }

    /// The pop-up has no such button (e.g. "Try again" on a payment pop-up).
    public static func wrongPopupKind(_ popupId: String, kind: PopupKind, expected: [PopupKind]) -> PBBAError {
        PBBAError(Descriptors.wrongPopupKind,
                  PBBAErrorData(type: "wrongPopupKind", status: "FAILED_PRECONDITION", fatal: false,
                                popupId: popupId, popupKind: kind, expectedKinds: expected))
    }

    /// The backend could not generate a request (sandbox: amount 99.91).
    public static func requestGenerationFailed() -> PBBAError {
        PBBAError(Descriptors.requestGenerationFailed,
                  PBBAErrorData(type: "requestGenerationFailed", status: "UNAVAILABLE", fatal: false,
                                suggestedPopup: requestGenerationPopup))
    }

    /// The backend could not be reached (sandbox: amount 99.92).
    public static func networkError() -> PBBAError {
        PBBAError(Descriptors.networkError,
                  PBBAErrorData(type: "networkError", status: "UNAVAILABLE", fatal: false,
                                suggestedPopup: networkErrorPopup))
    }

    /// The published descriptors, one per error; methods list them in their `errors`.
    public enum Descriptors {
        /// What the bank app's decision on a request (approve or decline) can fail with.
        public static var bankDecision: [RPCErrorDescriptor] {
            [paymentRequestNotFound, brnNotFound, brnMismatch, requestExpired, paymentAlreadyFinished]
        }
        public static let paymentRequestNotFound = RPCErrorDescriptor(
            code: RPCError.Code(-33100), message: "Payment request not found", data: PBBAErrorData.self)
        public static let brnNotFound = RPCErrorDescriptor(
            code: RPCError.Code(-33101), message: "Code not found", data: PBBAErrorData.self)
        public static let requestExpired = RPCErrorDescriptor(
            code: RPCError.Code(-33102), message: "Request expired", data: PBBAErrorData.self)
        public static let paymentAlreadyFinished = RPCErrorDescriptor(
            code: RPCError.Code(-33103), message: "Payment already finished", data: PBBAErrorData.self)
        public static let noBankAppInstalled = RPCErrorDescriptor(
            code: RPCError.Code(-33104), message: "No bank app installed", data: PBBAErrorData.self)
        public static let brnMismatch = RPCErrorDescriptor(
            code: RPCError.Code(-33105), message: "Code mismatch", data: PBBAErrorData.self)
        public static let popupNotFound = RPCErrorDescriptor(
            code: RPCError.Code(-33106), message: "Popup not found", data: PBBAErrorData.self)
        public static let wrongPopupKind = RPCErrorDescriptor(
            code: RPCError.Code(-33107), message: "Wrong popup kind", data: PBBAErrorData.self)
        public static let requestGenerationFailed = RPCErrorDescriptor(
            code: RPCError.Code(-33108), message: "Request generation failed", data: PBBAErrorData.self)
        public static let networkError = RPCErrorDescriptor(
            code: RPCError.Code(-33109), message: "Network error", data: PBBAErrorData.self)
    }
}
