/// A security code: 3 or 4 digits (CVV, CVC; four for American Express).
///
/// A secret: checked, never kept.
/// - Pattern: ^[0-9]{3,4}$
/// - Sensitive
/// - Example: "123"
public typealias CardSecurityCode = String
