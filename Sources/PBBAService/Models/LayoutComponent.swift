import PayRPCJSON
import PayRPCSchema

/// One fixed-size view of a custom merchant button layout.
public struct LayoutComponent: JSONModel, Equatable {
    /// Which view.
    public var kind: LayoutComponentKind
    /// Whether it is displayed (CFI logos never are: the Operator disabled them, section 1.1).
    public var displayed: Bool
    /// The text it shows, if any.
    public var text: String?
    /// Why it is (not) displayed or what tapping it does.
    public var note: String?
}
