/// A country code: two capital letters (ISO 3166-1 alpha-2).
/// - Pattern: ^[A-Z]{2}$
/// - Example: "US"
public typealias CountryCode = String
