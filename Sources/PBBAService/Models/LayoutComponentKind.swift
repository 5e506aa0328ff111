import PayRPCJSON
import PayRPCSchema

/// One view inside a custom merchant button layout (document sections 3.5.1.8 to 3.5.1.10).
public enum LayoutComponentKind: String, JSONModel, Equatable {
    /// The Pay by Bank app logo (paymarque).
    case pbbaLogo
    /// The "More about Pay by Bank app" link with its informative text; tapping it opens the
    /// "More about Pay by Bank app" pop-up (section 3.5.1.7).
    case moreAboutLink
    /// The logos of CFIs whose bank apps support Pay by Bank app (a roadmap feature the Operator
    /// has disabled: never displayed).
    case bankLogos
}
