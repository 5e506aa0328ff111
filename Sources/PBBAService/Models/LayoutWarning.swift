import PayRPCJSON
import PayRPCSchema

/// Something about a requested layout the document warns of, which the gateway serves anyway.
public struct LayoutWarning: JSONModel, Equatable {
    /// The param it concerns (`width`).
    public var field: String
    /// The smallest value the document recommends.
    public var minimum: Double
    /// What the document says happens.
    public var message: String
}
