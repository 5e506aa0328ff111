import PayRPCJSON
import PayRPCSchema

/// The custom merchant button layout type (document section 4.2.6, iOS `PBBACustomUXType`).
public enum CustomUXType: String, JSONModel, Equatable, CaseIterable {
    /// `PBBACustomButtonTypeNone`: the button with the PBBA logo (section 3.5.1.9).
    case none
    /// `PBBACustomButtonTypeMoreAbout`: with the "More about Pay by Bank app" link (section 3.5.1.10).
    case moreAbout
    /// `PBBACustomButtonTypeBankLogos`: with CFI (bank) logos; the Operator has disabled CFI logos,
    /// so none are displayed (section 1.1).
    case bankLogos
    /// `PBBACustomButtonTypeMoreAboutAndBankLogos`: the link and CFI logos (logos not displayed).
    case moreAboutAndBankLogos
}
