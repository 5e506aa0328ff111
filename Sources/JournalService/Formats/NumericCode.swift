/// A numeric code: 1 to 20 digits.
///
/// An agency's or a consignor's code, as the bank writes it.
/// - Pattern: ^[0-9]{1,20}$
/// - Example: "0012345"
public typealias NumericCode = String
