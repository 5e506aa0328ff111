import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Describes the layout of an integrated custom merchant button of the given type and width.
///
/// Document section 4.2.6, `[PBBAAppUtils getCustomUXConfigurationsWithWidth:andType:]`, which
/// returns a `UIView`; the gateway returns what that view packs, for the merchant app to render
/// (the rendering and the tap handling are the app's). The document's minimum width is 200
/// points, and a smaller layout "may not appear correctly": it is served with a warning, as the
/// library would still return a view. The views inside have fixed sizes. CFI logos are never
/// displayed (the Operator has disabled them).
public enum GetCustomUXConfigurations: PBBAMethod {
    public static let name = "pbba.getCustomUXConfigurations"
    public static let traits: MethodTraits = [.runsInline]
    public static let aliases = ["getCustomUXConfigurationsWithWidth"]

    /// The method's two parameters.
    public struct Params: JSONModel, Equatable {
        /// The layout width in points (`width`, a CGFloat); under 200 is served with a warning.
        /// - ExclusiveMinimum: 0
        /// - Maximum: 10000
        public var width: Double
        /// The layout type (`customUXType`, iOS `PBBACustomUXType`).
        public var type: CustomUXType
    }

    public typealias Result = CustomUXLayout
}
