import PayRPCJSON

/// The words of a named format, as a schema carries them in `x-format`: what a value of the
/// format is, with an example (`an amount: a decimal string of at most 18 digits, e.g. "12.50"`).
///
/// The validator says them to a client whose value breaks the schema (``CompiledSchema``); the
/// generator writes them from a named format's declaration, and the hand-written schemas of
/// `Amount` and `Currency` from theirs. Written here once so that every schema words them alike.
public enum FormatWords {
    /// The annotation keyword.
    public static let keyword = "x-format"

    /// The most characters of a format's words a message quotes; the generator refuses longer
    /// words, so that none is cut.
    public static let maximumLength = 150

    /// `<summary>, e.g. <example as JSON>`.
    public static func of(summary: String, example: String) -> String {
        "\(summary), e.g. \(JSONValue.string(example).jsonText)"
    }
}
