import SwiftSyntax
import Foundation

/// A declaration's `///` (or `/** */`) doc comment: its prose and its constraint tags.
///
/// Tags are lines of the form `- Tag: value`, in the way typescript-json-schema reads JSDoc
/// tags: `- Pattern: ^[A-Z]{3}$`, `- Minimum: 0`, `- Key: image_url`, `- Alias: recepient`; `- Deprecated` and
/// `- Sensitive` may stand alone. A tag may also close a
/// line of prose (`Phone numbers.  - MinItems: 1`). Tags are removed from the prose; other
/// Swift markup (`- Note:`, `- Returns:`) stays in it.
struct DocComment: Equatable {
    /// One tag and the line it was written on.
    struct Tag: Equatable {
        var name: String
        var value: String
        var line: Int
    }

    /// The prose lines, tags removed, blank lines kept as paragraph breaks.
    var lines: [String] = []
    /// The tags in source order.
    var tags: [Tag] = []
    /// A tag-like line whose name differs only in case from a known tag (a likely typo).
    var misspelledTags: [Tag] = []
    /// Whether there was a doc comment at all.
    var isPresent = false

    /// The tags the generator understands.
    static let knownTags: [String] = [
        "Pattern", "MinLength", "MaxLength", "Minimum", "Maximum", "ExclusiveMinimum", "ExclusiveMaximum",
        "MultipleOf", "MinItems", "MaxItems", "Format", "Example", "Key", "SchemaName", "Default", "Deprecated",
        "Alias", "Handlers", "OtherMembers", "Sensitive",
    ]

    /// The tags that may stand alone, without a colon and a value (`- Deprecated`, `- Sensitive`).
    static let flagTags: Set<String> = ["Deprecated", "Sensitive"]

    /// The whole prose: paragraphs separated by a blank line, lines within one kept as written
    /// (Markdown reads a single line break as a space).
    var text: String { paragraphs.joined(separator: "\n\n") }

    /// The first paragraph on one line: a summary.
    var summary: String { paragraphs.first.map { $0.split(separator: "\n").joined(separator: " ") } ?? "" }

    /// Everything after the first paragraph.
    var remainder: String { paragraphs.dropFirst().joined(separator: "\n\n") }

    var paragraphs: [String] {
        var result: [String] = []
        var current: [String] = []
        for line in lines {
            if line.allSatisfy(\.isWhitespace) {
                if !current.isEmpty {
                    result.append(current.joined(separator: "\n"))
                    current = []
                }
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { result.append(current.joined(separator: "\n")) }
        return result
    }

    /// All values of `name`.
    func values(_ name: String) -> [Tag] { tags.filter { $0.name == name } }

    /// The last value of `name`.
    func value(_ name: String) -> Tag? { tags.last { $0.name == name } }

    /// Reads the doc comment in `node`'s leading trivia: the last run of doc comments, which a
    /// plain `//` comment interrupts.
    init(leadingTriviaOf node: some SyntaxProtocol, converter: SourceLocationConverter) {
        var raw: [(String, Int)] = []
        var position = node.position
        for piece in node.leadingTrivia {
            let line = converter.location(for: position).line
            switch piece {
            case .docLineComment(let text):
                var body = Substring(text.dropFirst(3))
                if body.first == " " { body = body.dropFirst() }
                raw.append((String(body), line))
            case .docBlockComment(let text):
                raw = []
                var body = Substring(text.dropFirst(3))
                if body.hasSuffix("*/") { body = body.dropLast(2) }
                for (offset, rawLine) in body.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    var trimmed = rawLine.drop { $0 == " " || $0 == "\t" }
                    if trimmed.hasPrefix("* ") { trimmed = trimmed.dropFirst(2) } else if trimmed == "*" { trimmed = "" }
                    raw.append((String(trimmed), line + offset))
                }
            case .lineComment, .blockComment:
                raw = []
            default:
                break
            }
            position += piece.sourceLength
        }
        isPresent = !raw.isEmpty
        for (text, line) in raw { absorb(text, line: line) }
        while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
        while let first = lines.first, first.allSatisfy(\.isWhitespace) { lines.removeFirst() }
    }

    /// Makes a doc comment from plain lines (tests).
    init(lines rawLines: [String], firstLine: Int = 1) {
        isPresent = !rawLines.isEmpty
        for (offset, text) in rawLines.enumerated() { absorb(text, line: firstLine + offset) }
        while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
    }

    private mutating func absorb(_ text: String, line: Int) {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        // A whole-line tag, or a misspelled one.
        if trimmed.hasPrefix("- ") {
            let rest = trimmed.dropFirst(2)
            let name = rest.prefix { $0.isLetter }
            let after = rest.dropFirst(name.count)
            if DocComment.knownTags.contains(String(name)) {
                if after.hasPrefix(":") {
                    tags.append(Tag(name: String(name), value: String(after.dropFirst()).trimmed, line: line))
                    return
                }
                if DocComment.flagTags.contains(String(name)), after.allSatisfy(\.isWhitespace) {
                    tags.append(Tag(name: String(name), value: "", line: line))
                    return
                }
            } else if after.hasPrefix(":"),
                let known = DocComment.knownTags.first(where: { $0.lowercased() == name.lowercased() })
            {
                misspelledTags.append(Tag(name: known, value: String(name), line: line))
                return
            }
        }
        // A tag closing a line of prose: `text  - MinItems: 1`.
        for name in DocComment.knownTags {
            guard let range = text.range(of: " - \(name):") else { continue }
            let prose = String(text[..<range.lowerBound])
            tags.append(Tag(name: name, value: String(text[range.upperBound...]).trimmed, line: line))
            lines.append(prose.trimmedTrailing)
            return
        }
        lines.append(text.trimmedTrailing)
    }
}

extension StringProtocol {
    var trimmed: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    var trimmedTrailing: String {
        String(String(reversed()).drop { $0.isWhitespace }.reversed())
    }
}
