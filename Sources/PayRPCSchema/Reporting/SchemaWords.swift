import PayRPCJSON

/// What a schema says about its values in words, for the messages of the collecting walker
/// (``CompiledSchema/validate(_:)``); the yes/no walk never reads it.
///
/// Two annotation keywords, which other validators ignore as draft-07 lets them:
/// - `x-format` on a string schema names its format with an example:
///   `{"type": "string", "pattern": "^[A-Z0-9]{17}$", "x-format": "an order ID: 17 capital
///   letters or digits, e.g. \"5O190127TN364715T\""}`. A value that breaks the schema's `type`,
///   `pattern`, `format`, `minLength` or `maxLength` gets one violation, under the first keyword
///   it breaks, saying `must be an order ID: …` instead of quoting the pattern.
/// - `x-spelling` on a branch of an `anyOf` whose branches each require one member (one
///   member under any of its spellings, as payrpc's generator writes it) says whose spelling
///   that branch's member is: `{"required": ["recepient"], "x-spelling": "Android"}`. A value with
///   none of them gets one `required` violation naming them all:
///   `missing required member "contact" (or Android's "recepient")`.
///
/// The generator writes both from the models' declarations (a named format's doc comment, an
/// `- Alias:` tag); a hand-written schema may use them too.
struct SchemaWords: Sendable {
    /// `x-format` by node.
    var formats: [NodeID: String] = [:]
    /// `x-spelling` by node.
    var spellings: [NodeID: String] = [:]

    /// The annotation keyword of a spelling.
    static let spellingKeyword = "x-spelling"

    /// Records the words of the schema object `value` compiled as node `id`.
    mutating func record(_ id: NodeID, _ value: JSONValue) {
        if case .string(let text)? = value[FormatWords.keyword], !text.isEmpty { formats[id] = text }
        if case .string(let text)? = value[Self.spellingKeyword], !text.isEmpty { spellings[id] = text }
    }
}
