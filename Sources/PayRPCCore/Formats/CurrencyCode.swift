/// A currency code: three capital letters (ISO 4217).
///
/// A code as text, for models whose service answers an unknown code with its own error (Orders
/// v2's `CURRENCY_NOT_SUPPORTED`); a field of type `Currency` takes only active codes.
/// - Pattern: ^[A-Z]{3}$
/// - Example: "EUR"
public typealias CurrencyCode = String
