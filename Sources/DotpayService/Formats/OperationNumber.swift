/// An operation number: M, four digits, a hyphen and four digits.
///
/// Dotpay's number of a payment or of an operation related to it.
/// - Pattern: ^M[0-9]{4}-[0-9]{4}$
/// - Example: "M1234-5678"
public typealias OperationNumber = String
