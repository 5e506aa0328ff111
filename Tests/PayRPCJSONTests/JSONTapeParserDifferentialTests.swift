import PayRPCJSON
import PayRPCJSONReference
import PayRPCTestSupport
import Testing

/// The shipped tape parser against the one it replaced (`ReferenceJSONTapeParser`, f568cad): on
/// every input the same tape, entry for entry, or the same error, kind and offset. Bad input first;
/// then valid JSON of every shape, every truncation and many mutations of it.
@Suite(.longComputation) struct JSONTapeParserDifferentialTests {
    static func printable(_ bytes: [UInt8]) -> String {
        bytes.count <= 200
            ? "\(bytes.map { $0 < 0x20 || $0 >= 0x7F ? "\\x\(String($0, radix: 16))" : String(UnicodeScalar($0)) }.joined())"
            : "\(bytes.count) bytes"
    }

    @Test func everyInputOfOneOrTwoBytes() {
        compare { found in
            let tape = JSONTape()
            found.check([], reusing: tape)
            for first in 0...255 {
                found.check([UInt8(first)], reusing: tape)
                for second in 0...255 { found.check([UInt8(first), UInt8(second)], reusing: tape) }
            }
        }
    }

    /// Every pair of bytes inside a string, and every lead byte with the continuation bytes around
    /// each edge (overlongs, surrogates, past U+10FFFF, truncated at the closing quote or the end).
    @Test func badUTF8AndControlCharactersInStrings() {
        compare { found in
            let tape = JSONTape()
            for first in 0...255 {
                for second in 0...255 {
                    found.check([0x22, UInt8(first), UInt8(second), 0x22], reusing: tape)
                    found.check([0x22, UInt8(first), UInt8(second)], reusing: tape)
                }
            }
            let edges: [UInt8] = [0x00, 0x1F, 0x22, 0x41, 0x5C, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
            for lead in 0xC0...0xFF {
                for second in edges {
                    for third in edges {
                        for fourth in edges {
                            let scalar: [UInt8] = [UInt8(lead), second, third, fourth]
                            found.check([0x22] + scalar + [0x22], reusing: tape)
                            found.check([0x5B, 0x22, 0x61] + scalar + Array("bcdefgh\"]".utf8), reusing: tape)
                            found.check(Array(#"{"abcdefg"#.utf8) + scalar, reusing: tape)
                        }
                    }
                }
            }
        }
    }

    @Test(arguments: [
        #""\"#, #""\u"#, #""\u1"#, #""\u12"#, #""\u123"#, #""\u1234"#, #""\u12345""#, #""\uGGGG""#, #""\u12g4""#,
        #""\U1234""#, #""\x""#, #""\'""#, #""\a""#, #""\0""#, #""\ ""#, #""ab\"#, #""abcdefgh\"#, #""abcdefgh\q""#,
        #"{"a\"#, #"{"a\z":1}"#, #"["\uD834\uDD1E", "\uD834"]"#, #""\\\\\\\"\/\b\f\n\r\t""#,
    ])
    func badAndGoodEscapes(text: String) {
        compare { found in
            found.check(Array(text.utf8), reusing: JSONTape())
        }
    }

    @Test func deepNesting() {
        compare { found in
            let tape = JSONTape()
            for depth in [1, 2, 63, 64, 65, 511, 512, 513, 600] {
                for (open, close) in [("[", "]"), ("{\"a\":", "}"), ("[{\"k\":", "}]")] {
                    let opens = String(repeating: open, count: depth)
                    let closes = String(repeating: close, count: depth)
                    for body in ["", "1", "[]", "{}", "\"x\"", "null"] {
                        found.check(Array((opens + body + closes).utf8), reusing: tape, "depth \(depth)")
                        found.check(Array((opens + body).utf8), reusing: tape, "depth \(depth) unclosed")
                        found.check(Array((opens + body + closes + "]").utf8), reusing: tape, "depth \(depth) extra")
                    }
                }
            }
        }
    }

    @Test func numbersAtEveryEdge() {
        compare { found in
            let tape = JSONTape()
            let parts = [
                "", "-", "0", "00", "1", "9", "12345678901234567890", ".", ".5", ".0e", "e", "E", "e+", "e-", "e5", "E+9", "x",
                " ",
            ]
            for a in parts {
                for b in parts {
                    for c in parts {
                        let text = a + b + c
                        found.check(Array(text.utf8), reusing: tape)
                        found.check(Array("[\(text)]".utf8), reusing: tape)
                        found.check(Array("{\"n\":\(text)}".utf8), reusing: tape)
                        found.check(Array("[\(text),1]".utf8), reusing: tape)
                    }
                }
            }
        }
    }

    @Test func literalsAndWhitespace() {
        compare { found in
            let tape = JSONTape()
            let words = ["true", "false", "null", "tru", "fals", "nul", "trUe", "nulll", "t", "f", "n", "truefalse"]
            let spaces = ["", " ", "\t", "\n", "\r", " \r\n\t ", "\u{0B}", "\u{0C}", "\u{A0}"]
            for word in words {
                for before in spaces {
                    for after in spaces {
                        found.check(Array((before + word + after).utf8), reusing: tape)
                        found.check(Array("[\(before)\(word)\(after)]".utf8), reusing: tape)
                        found.check(Array("{\(before)\"k\"\(after):\(before)\(word)\(after)}".utf8), reusing: tape)
                        found.check(Array("[\(word)\(before),\(after)\(word)]".utf8), reusing: tape)
                    }
                }
            }
        }
    }

    /// Random valid documents of every shape, each then cut at every offset and mutated: a byte
    /// replaced by one that matters to the grammar, deleted, or inserted.
    @Test func generatedDocumentsTruncatedAndMutated() {
        compare { found in
            var random = SplitMix64(seed: 31)
            let tape = JSONTape()
            let interesting: [UInt8] =
                Array("{}[]\":,\\/-+.0123456789eEtfnu \t\r\n".utf8) + [
                    0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xFF,
                ]
            for round in 0..<150 {
                let document = Array(Self.document(&random, depth: 0, compact: round % 3 != 0).utf8)
                found.check(document, reusing: tape, "round \(round)")
                for cut in 0..<document.count { found.check(Array(document[..<cut]), reusing: tape, "round \(round) cut \(cut)") }
                for _ in 0..<20 {
                    var mutated = document
                    let at = Int(random.next() % UInt64(max(mutated.count, 1)))
                    switch random.next() % 3 {
                    case 0 where !mutated.isEmpty: mutated[at] = interesting[Int(random.next() % UInt64(interesting.count))]
                    case 1 where !mutated.isEmpty: mutated.remove(at: at)
                    default: mutated.insert(interesting[Int(random.next() % UInt64(interesting.count))], at: at)
                    }
                    found.check(mutated, reusing: tape, "round \(round) mutated")
                }
            }
        }
    }

    /// The requests the benchmarks send, whole and cut at every offset.
    @Test func benchmarkRequests() {
        compare { found in
            let tape = JSONTape()
            let requests = [
                #"{"jsonrpc":"2.0","id":0,"method":"rpc.health"}"#,
                #"{"jsonrpc":"2.0","id":0,"method":"tatra.executePayment","params":{"amount":"12.50","contact":{"fullName":"Jana Nováková","phones":["+421900123456"]},"reference":"Invoice 2026-001 for services"}}"#,
            ]
            for request in requests {
                let bytes = Array(request.utf8)
                for cut in 0...bytes.count { found.check(Array(bytes[..<cut]), reusing: tape) }
            }
        }
    }

    // MARK: - Generated documents

    static let texts = [
        "", "a", "rpc.health", "Jana Nováková", "😀", "\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}", "tab\there",
        "quote\"back\\slash/", "\u{1}\u{1F}", "exactly8", "seventeen bytes!!", "ünïcödé at the end é",
        String(repeating: "long text ", count: 12),
    ]

    static func string(_ random: inout SplitMix64) -> String {
        var text = texts[Int(random.next() % UInt64(texts.count))]
        if random.next() % 4 == 0 { text += "\\u00e9\\ud83d\\ude00\\n" }  // escapes written raw
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\" where random.next() % 8 != 0: escaped += "\\"  // keep the raw escapes above
            case "\t": escaped += "\\t"
            case let control where control.value < 0x20:
                escaped += "\\u00" + (control.value < 0x10 ? "0" : "") + String(control.value, radix: 16)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"" + escaped + "\""
    }

    static let numbers = [
        "0", "-0", "1", "-1", "42", "1234567890123456789012345", "0.5", "-0.0", "3.14159", "1e5", "1E+5", "1e-5",
        "-1.5e-300", "9223372036854775807", "-9223372036854775808", "18446744073709551616",
    ]

    static func document(_ random: inout SplitMix64, depth: Int, compact: Bool) -> String {
        let space = compact ? "" : [" ", "\n  ", "\t", "\r\n"][Int(random.next() % 4)]
        switch random.next() % (depth > 4 ? 5 : 8) {
        case 0: return string(&random)
        case 1: return numbers[Int(random.next() % UInt64(numbers.count))]
        case 2: return ["true", "false", "null"][Int(random.next() % 3)]
        case 3: return string(&random)
        case 4: return numbers[Int(random.next() % UInt64(numbers.count))]
        case 5, 6:
            let count = Int(random.next() % 6)
            let members = (0..<count).map { _ in
                string(&random) + space + ":" + space + document(&random, depth: depth + 1, compact: compact)
            }
            return "{" + space + members.joined(separator: "," + space) + space + "}"
        default:
            let count = Int(random.next() % 7)
            let elements = (0..<count).map { _ in document(&random, depth: depth + 1, compact: compact) }
            return "[" + space + elements.joined(separator: "," + space) + space + "]"
        }
    }
}

extension Findings {
    /// Checks one input with a fresh tape and with a reused one; notes the first difference.
    mutating func check(_ bytes: [UInt8], reusing tape: JSONTape, _ comment: @autoclosure () -> String = "") {
        if let difference = TapeParserDifferential.mismatch(bytes, in: tape) ?? TapeParserDifferential.mismatch(bytes) {
            note("\(comment()) \(JSONTapeParserDifferentialTests.printable(bytes)): \(difference)")
        }
    }
}
