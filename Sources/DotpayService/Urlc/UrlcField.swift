import PayRPCJSON
import PayRPCSchema

/// One parameter of a URLC notification, as Dotpay names it (`operation_number`) and as it is
/// posted: a form field.
public struct UrlcField: JSONModel, Equatable {
    /// Dotpay's name of the parameter.
    public var name: String
    /// Its value, as posted.
    public var value: String
}
