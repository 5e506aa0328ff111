import PayRPCFuzzSupport
import PayRPCJSON
import PayRPCJSONReference

/// The JSON reader on any bytes: a value or a ``JSONParseError`` with an offset inside the
/// input, never a crash, a hang or unbounded recursion (nesting deeper than
/// ``JSONTape/maximumDepth`` is its own error, `tooDeep`). Every accessor of every element of a
/// parsed value is read, and a reused tape parses the same input to the same value. The parser
/// makes the same tape, entry for entry, or the same error, kind and offset, as the one it replaced
/// (`ReferenceJSONTapeParser`, kept in Tests/PayRPCJSONReference).
@main
enum JSONReaderFuzz: FuzzTarget {
    static let reused = JSONTape()

    static let differential = JSONTape()

    static func fuzz(_ input: UnsafeRawBufferPointer) {
        if let difference = TapeParserDifferential.mismatch(input, in: differential) {
            fuzzCheck(false, "the parser differs from the reference: \(difference)")
        }
        let value: JSONValue
        do {
            let tape = try JSONTape(copying: input)
            value = tape.withRoot { root in
                visit(root, depth: 1)
                return JSONValue(root)
            }
        } catch {
            fuzzCheck(error.offset >= 0 && error.offset <= input.count, "offset \(error.offset) of \(input.count)")
            if error.reason == .tooDeep { fuzzCheck(input.count > JSONTape.maximumDepth, "tooDeep on \(input.count) bytes") }
            return
        }
        do {
            try reused.parse(input)
            fuzzCheck(reused.withRoot { JSONValue($0) } == value, "a reused tape read another value")
        } catch {
            fuzzCheck(false, "a reused tape failed: \(error)")
        }
    }

    /// Reads everything an element offers.
    static func visit(_ element: JSONElement, depth: Int) {
        fuzzCheck(depth <= JSONTape.maximumDepth, "depth \(depth) accepted")
        _ = element.rawText
        switch element.kind {
        case .null: fuzzCheck(element.isNull, "null")
        case .bool: fuzzCheck(element.bool != nil, "bool")
        case .number:
            fuzzCheck(element.double != nil, "a number Double cannot read: \(element.rawText)")
            if let integer = element.int64, !element.rawText.contains(where: { ".eE".contains($0) }) {
                fuzzCheck(String(integer) == canonicalInteger(element.rawText), "int64 \(integer) of \(element.rawText)")
            }
        case .string:
            let text = element.string
            fuzzCheck(text != nil, "string")
            fuzzCheck(element.stringEquals(text!), "a string unequal to itself: \(element.rawText)")
        case .array:
            var count = 0
            for child in element.arrayElements {
                visit(child, depth: depth + 1)
                count += 1
            }
            fuzzCheck(count == element.count, "array count")
        case .object:
            var count = 0
            for (name, value) in element.objectMembers {
                fuzzCheck(name.kind == .string, "a member name that is not a string")
                fuzzCheck(element.member(name.string!) != nil, "a member not found by its name")
                visit(value, depth: depth + 1)
                count += 1
            }
            fuzzCheck(count == element.count, "object count")
        }
        fuzzCheck(element.jsonEquals(element), "a value unequal to itself: \(element.rawText)")
    }

    /// `-0` reads as 0; leading zeros cannot occur in JSON.
    static func canonicalInteger(_ text: String) -> String { text == "-0" ? "0" : text }
}
