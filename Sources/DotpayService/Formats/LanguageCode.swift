/// A language code: two lowercase letters (ISO 639-1).
/// - Pattern: ^[a-z]{2}$
/// - Example: "pl"
public typealias LanguageCode = String
