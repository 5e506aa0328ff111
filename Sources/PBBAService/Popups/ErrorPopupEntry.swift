import PayRPCCore

/// An error pop-up on screen (from `showPBBAErrorPopup`), waiting to be closed or retried.
struct ErrorPopupEntry: Sendable {
    /// Its id.
    let popupId: String
    /// The error code it shows.
    let errorCode: String?
    /// The connection that showed it; weak.
    weak var session: ConnectionSession?
    /// That connection's id.
    let sessionID: UInt64
}
