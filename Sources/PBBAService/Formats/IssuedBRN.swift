/// A BRN as payrpc issues it: six characters without 0, O, 1, I or L.
/// - Pattern: ^[2-9A-HJKMNP-Z]{6}$
/// - Example: "K7MXQ2"
public typealias IssuedBRN = String
