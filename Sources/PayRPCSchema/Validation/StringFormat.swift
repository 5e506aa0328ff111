/// The `format` values this validator checks. Other formats are annotations only, as
/// draft-07 allows; every format applies to strings only (other kinds always pass).
enum StringFormat: String, Sendable, CaseIterable {
    case dateTime = "date-time"
    case date
    case time
    case email
    case hostname
    case ipv4
    case ipv6
    case uri
    case uriReference = "uri-reference"
    case uuid
    case regex
    case jsonPointer = "json-pointer"

    /// The format in words with an example, for the message of a value not in it
    /// (`must be an absolute URI, e.g. "https://example.com/path"`).
    var words: String {
        switch self {
        case .dateTime: return #"a date-time (RFC 3339), e.g. "2026-01-31T12:00:00Z""#
        case .date: return #"a date (RFC 3339 full-date), e.g. "2026-01-31""#
        case .time: return #"a time (RFC 3339 full-time), e.g. "12:00:00Z""#
        case .email: return #"an email address, e.g. "jan@example.com""#
        case .hostname: return #"a host name, e.g. "example.com""#
        case .ipv4: return #"an IPv4 address, e.g. "192.0.2.1""#
        case .ipv6: return #"an IPv6 address, e.g. "2001:db8::1""#
        case .uri: return #"an absolute URI, e.g. "https://example.com/path""#
        case .uriReference: return #"a URI reference, e.g. "/path?q=1""#
        case .uuid: return #"a UUID, e.g. "123e4567-e89b-12d3-a456-426614174000""#
        case .regex: return #"a regular expression, e.g. "^[A-Z]{3}$""#
        case .jsonPointer: return #"a JSON Pointer, e.g. "/items/0""#
        }
    }

    /// Whether `text` is in this format.
    func accepts(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        switch self {
        case .dateTime: return FormatGrammar.isDateTime(bytes)
        case .date: return FormatGrammar.isFullDate(bytes[...])
        case .time: return FormatGrammar.isFullTime(bytes[...]) != nil
        case .email: return FormatGrammar.isEmail(bytes)
        case .hostname: return FormatGrammar.isHostname(bytes[...])
        case .ipv4: return FormatGrammar.isIPv4(bytes[...])
        case .ipv6: return FormatGrammar.isIPv6(bytes[...])
        case .uri: return FormatGrammar.isURI(bytes, requireScheme: true)
        case .uriReference: return FormatGrammar.isURI(bytes, requireScheme: false)
        case .uuid: return FormatGrammar.isUUID(bytes)
        case .regex: return ECMARegex(text) != nil
        case .jsonPointer: return JSONPointer.tokens(text) != nil
        }
    }
}
