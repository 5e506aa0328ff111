/// A card nonce: "tokencc_" and 24 lowercase letters or digits.
///
/// What `northstar.tokenizeCard` returns in place of a card (`BTCardNonce`).
/// - Pattern: ^tokencc_[a-z0-9]{24}$
/// - Sensitive
/// - Example: "tokencc_bh4k7m2q9x3z8p5w6n1r0tyc"
public typealias CardNonce = String
