/// A card's expiry month: YYYY-MM.
///
/// The card is valid through the end of that month on the profile's sandbox clock.
/// - Pattern: ^[0-9]{4}-(0[1-9]|1[0-2])$
/// - Example: "2030-11"
public typealias CardExpiry = String
