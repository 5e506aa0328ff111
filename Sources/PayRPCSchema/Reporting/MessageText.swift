/// Text from a schema or from the validated value, cut to fit a violation message.
///
/// A message quotes what it is about (a pattern, a member name, allowed values), and both the
/// schema and the value may hold text of any length: a generated pattern of 565 characters, a
/// member name of a megabyte. Each quoted piece is cut here, so that every message stays under
/// ``SchemaViolation/maximumMessageLength`` characters whatever it quotes.
enum MessageText {
    /// The most characters one quoted piece keeps before it is cut.
    static let pieceLimit = 60

    /// `text` when it has at most `limit` characters; else its first characters, `…` and how
    /// many characters it has: `^-?(0(\.[0-9]{1,18})?|[1-9](\.[0-9]{1,17})?|[1-9][0-9]{1}(\.… (565 characters)`.
    static func excerpt(_ text: String, limit: Int = pieceLimit) -> String {
        let count = text.count
        guard count > limit else { return text }
        return "\(text.prefix(limit))… (\(count) characters)"
    }

    /// A member name in double quotes, cut like ``excerpt(_:limit:)``.
    static func quoted(_ name: String) -> String {
        "\"" + excerpt(name) + "\""
    }
}
