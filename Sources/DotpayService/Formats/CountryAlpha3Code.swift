/// A country code: three capital letters (ISO 3166-1 alpha-3).
/// - Pattern: ^[A-Z]{3}$
/// - Example: "POL"
public typealias CountryAlpha3Code = String
