import PayRPCJSON
import PayRPCSchema

/// A pop-up on screen, by the id `showPBBAPopup` or `showPBBAErrorPopup` returned.
public struct PopupReference: JSONModel, Equatable {
    /// The pop-up's id.
    /// - Pattern: ^pp_[0-9a-f]{16}$
    public var popupId: String

    /// Creates the value from its members, one parameter per property.
    public init(popupId: String) {
        self.popupId = popupId
    }
}
