/// A card number: 12 to 19 digits, without spaces.
///
/// The shape of a payment card number wherever a model carries one (Northstar, Dotpay); each
/// service then checks the Luhn digit and the brand's lengths. A secret: never logged or stored
/// in clear.
/// - Pattern: ^[0-9]{12,19}$
/// - Sensitive: last4
/// - Example: "4111111111111111"
public typealias CardNumber = String
