import PayRPCJSON
import PayRPCSchema

/// A string format with a name, declared once as a `typealias` of `String` whose doc comment
/// carries its constraints, and named by every field of that format:
///
/// ```swift
/// /// An order ID: 17 capital letters or digits.
/// /// - Pattern: ^[A-Z0-9]{17}$
/// /// - Example: "5O190127TN364715T"
/// public typealias OrderID = String
/// ```
///
/// A format tagged `- Sensitive` (or `- Sensitive: last4`) is a secret wherever it is used: every
/// field of it gets `x-sensitive` (`CardNumber`, `CardSecurityCode`).
///
/// A field of type `OrderID` gets the format's constraints and `x-format`: the summary (its first
/// paragraph, first letter lowercased, final period dropped) and the example,
/// `an order ID: 17 capital letters or digits, e.g. "5O190127TN364715T"`. The validator says that
/// to a client whose value breaks the format, in place of the pattern. `Amount` and `Currency`
/// (PayRPCJSON) are named formats too, with their words declared on the types.
struct NamedFormat {
    /// The tags a named format may carry.
    static let tags: Set<String> = ["Pattern", "MinLength", "MaxLength", "Format", "Example", "Sensitive"]

    /// The typealias's Swift name.
    var swiftName: String
    /// The schema of every field of the format: `type`, the constraints and `x-format`.
    var schema: SchemaJSON

    /// The `x-format` of a format: `<summary>, e.g. <example as JSON>` (``FormatWords``).
    static func words(summary: String, example: String) -> String {
        FormatWords.of(summary: summary, example: example)
    }

    /// The words of ``Amount``, as its declaration gives them.
    static let amount = words(summary: Amount.formatSummary, example: Amount.formatExample)

    /// The words of ``Currency``, as its declaration gives them.
    static let currency = words(summary: Currency.formatSummary, example: Currency.formatExample)

    /// A summary as the middle of a sentence: `An order ID: 17 capital letters.` → `an order ID:
    /// 17 capital letters`, `A PIN: …` → `a PIN: …`. A first word in capitals (`ISO 4217 …`)
    /// keeps them.
    static func summaryWords(_ summary: String) -> String {
        var text = summary.trimmed
        if text.hasSuffix(".") { text.removeLast() }
        let firstWord = text.prefix { $0.isLetter }
        guard let first = firstWord.first, firstWord.count == 1 || firstWord.dropFirst().allSatisfy(\.isLowercase) else {
            return text
        }
        return first.lowercased() + text.dropFirst()
    }

    /// The reasons `example` breaks `schema` (none when it is valid): the example a message shows
    /// must itself be a value of the format. Checked with the gateway's own validator.
    static func problems(of example: String, against schema: SchemaJSON) -> [String] {
        guard let document = try? JSONValue(parsing: schema.jsonText) else { return ["the schema is not JSON"] }
        let compiled: CompiledSchema
        do throws(SchemaCompileError) {
            compiled = try CompiledSchema(document)
        } catch {
            return ["the schema does not compile: \(error)"]
        }
        return compiled.validate(JSONValue.string(example)).map(\.description)
    }

    /// The longest words a format may have: the validator quotes this many characters of them.
    static let maximumWordsLength = FormatWords.maximumLength
}
