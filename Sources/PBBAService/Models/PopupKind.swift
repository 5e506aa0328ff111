import PayRPCJSON
import PayRPCSchema

/// Which of the library's pop-ups a `popupId` refers to.
public enum PopupKind: String, JSONModel, Equatable {
    /// The M-COMM pop-up ("Open banking app" / "Get code"), section 3.5.1.1.
    case mcomm
    /// The E-COMM pop-up with the code, section 3.5.1.2 (also what "Get code" shows).
    case ecomm
    /// The error pop-up of `showPBBAErrorPopup`, section 4.2.3.2.
    case error
    /// The "More about Pay by Bank app" pop-up (section 3.5.1.7), opened from a payment pop-up's
    /// link (`sandbox.pbba.tapMoreAbout`).
    case moreAbout
}
