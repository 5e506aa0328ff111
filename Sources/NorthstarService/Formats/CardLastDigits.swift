/// A card's last digits: four digits.
/// - Pattern: ^[0-9]{4}$
/// - Example: "7321"
public typealias CardLastDigits = String
