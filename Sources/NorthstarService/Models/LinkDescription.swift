import PayRPCJSON
import PayRPCSchema

/// A HATEOAS link of an order (Orders v2 `link_description`), such as `payer-action`.
public struct LinkDescription: JSONModel, Equatable {
    /// Where.
    /// - Format: uri
    public var href: String
    /// What for: `self`, `payer-action`, `capture`, `authorize`.
    public var rel: String
    /// The HTTP method.
    public var method: String
}
