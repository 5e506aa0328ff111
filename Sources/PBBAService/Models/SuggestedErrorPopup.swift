import PayRPCJSON
import PayRPCSchema

/// The texts of one of the document's error pop-ups (sections 3.5.1.4 to 3.5.1.6), ready to pass
/// to `showPBBAErrorPopup`.
public struct SuggestedErrorPopup: JSONModel, Equatable {
    /// For `errorTitle`.
    public var errorTitle: String
    /// For `errorMessage`.
    public var errorMessage: String
}
