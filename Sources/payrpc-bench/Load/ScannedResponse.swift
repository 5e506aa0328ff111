/// What the bench needs to know about one response object: its id and whether it carries a
/// `result` or an `error` (and which).
struct ScannedResponse {
    /// The integer id; nil when the id is absent, `null`, a string or not an integer.
    var id: UInt64?
    /// Whether the object has an `"id"` member at all.
    var hasID = false
    /// Whether the object has a `"result"` member.
    var hasResult = false
    /// Whether the object has an `"error"` member.
    var hasError = false
    /// The integer `code` of the `error` object; nil without one.
    var errorCode: Int64?
    /// Whether the object has a `"method"` member (a notification or an echoed request).
    var hasMethod = false
}
