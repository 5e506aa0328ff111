import PayRPCJSON
import PayRPCSchema

/// The layout description of an integrated custom merchant button (document section 4.2.6,
/// `getCustomUXConfigurationsWithWidth:andType:`), which the merchant app renders itself.
public struct CustomUXLayout: JSONModel, Equatable {
    /// The layout type asked for.
    public var type: CustomUXType
    /// The iOS enum value (`PBBACustomButtonTypeNone`, ...).
    public var iosEnumValue: String
    /// The layout's name in the document.
    public var name: String
    /// The width of the layout component, in points (200 or more is recommended).
    public var width: Double
    /// The minimum width the document allows, 200 pt.
    public var minimumWidth: Double
    /// The views inside the layout, top to bottom.
    public var components: [LayoutComponent]
    /// The views inside the layout have fixed sizes and do not scale with the layout's size
    /// (section 4.2.6 note).
    public var fixedSizeSubviews: Bool
    /// The "More about Pay by Bank app" pop-up the link opens (for `moreAbout` layouts).
    public var moreAbout: MoreAboutContent?
    /// What the document warns of for this request: a width under 200 points "may not appear
    /// correctly" (section 4.2.6 note). Empty when there is nothing to warn of.
    public var warnings: [LayoutWarning]
}
