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
