// Foundation itself (not FoundationEssentials): regular expressions.
import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A ``CallMatch`` checked and ready to apply: its method resolved to every name its calls may
/// carry, its patterns compiled, its conditions each exactly one test. Tells a match from a miss,
/// and for a miss, every place it differed (``differences(_:)``).
struct CallMatcher {
    /// One test at a pointer.
    enum Test {
        case equals(JSONValue)
        case pattern(NSRegularExpression, String)
        case present
        case absent
    }

    /// A test at a pointer, relative to the params (`params`) or the entry (`entry`).
    struct Condition {
        let pointer: String
        let inParams: Bool
        let test: Test
    }

    let method: String?
    /// The canonical names of the method, when it is one the router knows.
    let methodNames: Set<String>
    let kind: CallEntryKind?
    let url: (NSRegularExpression, String)?
    let conditions: [Condition]
    let failed: Bool?

    /// Checks `match`, given at `pointer` in the params (`/match`, `/sequence/2`).
    /// - Throws: invalid params (-32602) naming the pointer of what is wrong: an unknown method, a
    ///   condition with no test or two, a pattern that does not compile.
    init(_ match: CallMatch, at pointer: String, router: Router?) throws(RPCError) {
        self.method = match.method
        var names: Set<String> = []
        if let method = match.method {
            if let descriptor = router?.method(named: method) {
                names.insert(descriptor.name)
            } else if router?.notifications.contains(where: { $0.name == method }) == true {
                names.insert(method)
            } else if Self.httpMethods.contains(method.uppercased()), match.kind == nil || match.kind == .http {
                names.insert(method.uppercased())
            } else if router != nil {
                throw Self.invalid(
                    "\(pointer)/method", "no method, notification or HTTP method is named \(method)", keyword: "method")
            } else {
                names.insert(method)
            }
        }
        self.methodNames = names
        self.kind = match.kind
        self.url = try match.url.map { pattern throws(RPCError) in
            (try Self.regex(pattern, at: "\(pointer)/url"), pattern)
        }
        var conditions: [Condition] = []
        for (member, list) in [("params", match.params), ("entry", match.entry)] {
            for (index, condition) in (list ?? []).enumerated() {
                let at = "\(pointer)/\(member)/\(index)"
                conditions.append(
                    Condition(pointer: condition.pointer, inParams: member == "params", test: try Self.test(condition, at: at)))
            }
        }
        self.conditions = conditions
        self.failed = match.failed
    }

    static let httpMethods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    private static func test(_ condition: CallCondition, at pointer: String) throws(RPCError) -> Test {
        var tests: [Test] = []
        if let value = condition.equals { tests.append(.equals(value)) }
        if let pattern = condition.pattern { tests.append(.pattern(try regex(pattern, at: "\(pointer)/pattern"), pattern)) }
        if let present = condition.present {
            guard present else { throw invalid("\(pointer)/present", "present may only be true (use absent)", keyword: "const") }
            tests.append(.present)
        }
        if let absent = condition.absent {
            guard absent else { throw invalid("\(pointer)/absent", "absent may only be true (use present)", keyword: "const") }
            tests.append(.absent)
        }
        guard tests.count == 1 else {
            throw invalid(
                pointer, "a condition takes exactly one of equals, pattern, present and absent (\(tests.count) given)",
                keyword: "oneOf")
        }
        return tests[0]
    }

    private static func regex(_ pattern: String, at pointer: String) throws(RPCError) -> NSRegularExpression {
        do { return try NSRegularExpression(pattern: pattern) } catch {
            throw invalid(pointer, "not a regular expression: \(pattern)", keyword: "pattern")
        }
    }

    static func invalid(_ pointer: String, _ message: String, keyword: String) -> RPCError {
        RPCError.invalidParams([SchemaViolation(pointer: pointer, keyword: keyword, message: message)])
    }

    // MARK: Matching

    /// Whether `entry` matches.
    func matches(_ entry: CallEntry) -> Bool {
        differences(entry).isEmpty
    }

    /// Where `entry` differs from the match (empty: it matches), each as the pointer into the
    /// entry, what the match expected, and what the entry holds there. The entry is encoded as JSON
    /// only when a condition reads the whole entry, once.
    func differences(_ entry: CallEntry) -> [CallDifference] {
        var found: [CallDifference] = []
        if let kind, entry.kind != kind {
            found.append(CallDifference(pointer: "/kind", expected: kind.rawValue, actual: .string(entry.kind.rawValue)))
        }
        if let method {
            let actual = entry.method.map { entry.kind == .http ? $0.uppercased() : $0 }
            if actual.map({ !methodNames.contains($0) }) ?? true {
                found.append(CallDifference(pointer: "/method", expected: method, actual: entry.method.map(JSONValue.string)))
            }
        }
        if let (regex, pattern) = url {
            let actual = entry.http?.url
            if actual.map({ !Self.contains(regex, $0) }) ?? true {
                found.append(
                    CallDifference(pointer: "/http/url", expected: "matches \(pattern)", actual: actual.map(JSONValue.string)))
            }
        }
        if let failed, (entry.error != nil) != failed {
            found.append(
                CallDifference(
                    pointer: "/error", expected: failed ? "an error" : "no error", actual: entry.error))
        }
        var encoded: JSONValue?
        for condition in conditions {
            let root: JSONValue
            if condition.inParams {
                root = entry.params ?? .null
            } else {
                if encoded == nil { encoded = JSONValue(encoding: entry) }
                root = encoded!
            }
            let value = entry.params == nil && condition.inParams ? nil : root.value(at: condition.pointer)
            let pointer = condition.inParams ? "/params" + condition.pointer : condition.pointer
            switch condition.test {
            case .equals(let expected):
                if value.map({ !Self.equal($0, expected) }) ?? true {
                    found.append(CallDifference(pointer: pointer, expected: "equals \(expected.jsonText)", actual: value))
                }
            case .pattern(let regex, let pattern):
                if value?.stringValue.map({ !Self.contains(regex, $0) }) ?? true {
                    found.append(CallDifference(pointer: pointer, expected: "matches \(pattern)", actual: value))
                }
            case .present:
                if value == nil { found.append(CallDifference(pointer: pointer, expected: "present", actual: nil)) }
            case .absent:
                if value != nil { found.append(CallDifference(pointer: pointer, expected: "absent", actual: value)) }
            }
        }
        return found
    }

    /// How far a miss is: a wrong kind or method weighs more than a param.
    static func distance(_ differences: [CallDifference]) -> Int {
        differences.reduce(0) { $0 + ($1.pointer == "/kind" || $1.pointer == "/method" ? 10 : 1) }
    }

    private static func contains(_ regex: NSRegularExpression, _ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// JSON equality, numbers by value (`1` equals `1.0`).
    static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.number(let a), .number(let b)): return a == b || (Double(a) != nil && Double(a) == Double(b))
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { member in b.contains { $0.name == member.name && equal($0.value, member.value) } }
        default: return left == right
        }
    }
}
