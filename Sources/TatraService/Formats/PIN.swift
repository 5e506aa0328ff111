/// A PIN: 4 to 8 digits.
///
/// What the user types to authorize (Android `AuthData.pincode`, iOS `pincode`).
/// - Pattern: ^[0-9]{4,8}$
/// - Sensitive
/// - Example: "1234"
public typealias PIN = String
