/// A pop-up ID: "pp_" and 16 lowercase hex digits.
/// - Pattern: ^pp_[0-9a-f]{16}$
/// - Example: "pp_0123456789abcdef"
public typealias PopupID = String
