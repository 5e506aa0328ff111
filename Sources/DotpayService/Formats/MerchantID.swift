/// A merchant ID: 1 to 10 digits.
///
/// The merchant's Dotpay account id (*ID konta Sprzedawcy*).
/// - Pattern: ^[0-9]{1,10}$
/// - Example: "10000"
public typealias MerchantID = String
