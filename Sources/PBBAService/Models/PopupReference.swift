import PayRPCJSON
import PayRPCSchema

/// A pop-up on screen, by the id `showPBBAPopup` or `showPBBAErrorPopup` returned.
public struct PopupReference: JSONModel, Equatable {
    /// The pop-up's id.
    public var popupId: PopupID
}
