import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCSync

// Test-only methods shaped after the examples of the JSON-RPC 2.0 specification. Their codecs
// are written by hand here because the test target is not scanned by payrpc-codegen.

/// Two integers.
struct SubtractParams: JSONModel, Equatable {
    var minuend: Int
    var subtrahend: Int

    static var fieldOrder: [String] { ["minuend", "subtrahend"] }
    static var schemaReference: JSONValue { ["$ref": "#/definitions/test.SubtractParams"] }
    static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        definitions.insert(
            "test.SubtractParams",
            schema: [
                "type": "object", "additionalProperties": false, "required": ["minuend", "subtrahend"],
                "properties": ["minuend": ["type": "integer"], "subtrahend": ["type": "integer"]],
            ])
    }
    init(minuend: Int, subtrahend: Int) {
        self.minuend = minuend
        self.subtrahend = subtrahend
    }
    init(json: JSONElement) throws(JSONDecodingError) {
        var minuend: Int?, subtrahend: Int?
        for (name, value) in json.objectMembers {
            if name.stringEquals("minuend") {
                minuend = try Int(json: value)
            } else if name.stringEquals("subtrahend") {
                subtrahend = try Int(json: value)
            }
        }
        guard let minuend else { throw .missing("minuend") }
        guard let subtrahend else { throw .missing("subtrahend") }
        self.init(minuend: minuend, subtrahend: subtrahend)
    }
    func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("minuend", minuend)
        writer.member("subtrahend", subtrahend)
        writer.endObject()
    }
}

/// Up to five integers, any of them absent.
struct NumbersParams: JSONModel, Equatable {
    var values: [Int]

    static var fieldOrder: [String] { ["a", "b", "c", "d", "e"] }
    static var schemaReference: JSONValue { ["$ref": "#/definitions/test.NumbersParams"] }
    static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        definitions.insert(
            "test.NumbersParams",
            schema: [
                "type": "object", "additionalProperties": false,
                "properties": [
                    "a": ["type": "integer"], "b": ["type": "integer"], "c": ["type": "integer"],
                    "d": ["type": "integer"], "e": ["type": "integer"],
                ],
            ])
    }
    init(json: JSONElement) throws(JSONDecodingError) {
        values = []
        for (name, value) in json.objectMembers where !name.stringEquals("_meta") { values.append(try Int(json: value)) }
    }
    func encode(to writer: inout JSONWriter) { writer.raw("{}") }
}

/// How long to wait, in milliseconds.
struct SleepParams: JSONModel, Equatable {
    var ms: Int

    static var fieldOrder: [String] { ["ms"] }
    static var schemaReference: JSONValue { ["$ref": "#/definitions/test.SleepParams"] }
    static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        definitions.insert(
            "test.SleepParams",
            schema: [
                "type": "object", "additionalProperties": false, "required": ["ms"],
                "properties": ["ms": ["type": "integer", "minimum": 0]],
            ])
    }
    init(json: JSONElement) throws(JSONDecodingError) {
        var ms: Int?
        for (name, value) in json.objectMembers where name.stringEquals("ms") { ms = try Int(json: value) }
        guard let ms else { throw .missing("ms") }
        self.ms = ms
    }
    func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("ms", ms)
        writer.endObject()
    }
}

/// A notification payload for push tests.
struct TickPayload: JSONModel, Equatable {
    var count: Int

    static var fieldOrder: [String] { ["count"] }
    static var schemaReference: JSONValue { ["$ref": "#/definitions/test.TickPayload"] }
    static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        definitions.insert(
            "test.TickPayload",
            schema: [
                "type": "object", "additionalProperties": false, "required": ["count"],
                "properties": ["count": ["type": "integer", "minimum": 1]],
            ])
    }
    init(count: Int) { self.count = count }
    init(json: JSONElement) throws(JSONDecodingError) {
        var count: Int?
        for (name, value) in json.objectMembers where name.stringEquals("count") { count = try Int(json: value) }
        guard let count else { throw .missing("count") }
        self.count = count
    }
    func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("count", count)
        writer.endObject()
    }
}

protocol TestDocumented: RPCMethodDocumented {}
extension TestDocumented {
    static var summary: String { "A test-only method." }
    static var documentation: String { "" }
}

enum Subtract: RPCMethod, TestDocumented {
    static let name = "subtract"
    typealias Params = SubtractParams
    typealias Result = Int
}

enum Sum: RPCMethod, TestDocumented {
    static let name = "sum"
    static let aliases = ["test.sum"]
    typealias Params = NumbersParams
    typealias Result = Int
}

enum Update: RPCMethod, TestDocumented {
    static let name = "update"
    typealias Params = NumbersParams
    typealias Result = NoResult
}

enum NotifyHello: RPCMethod, TestDocumented {
    static let name = "notify_hello"
    typealias Params = NumbersParams
    typealias Result = NoResult
}

enum NotifySum: RPCMethod, TestDocumented {
    static let name = "notify_sum"
    typealias Params = NumbersParams
    typealias Result = NoResult
}

enum GetData: RPCMethod, TestDocumented {
    static let name = "get_data"
    typealias Params = NoParams
    typealias Result = JSONValue
}

/// Waits (off the loop) and answers the number of milliseconds it waited.
enum Sleep: RPCMethod, TestDocumented {
    static let name = "test.sleep"
    static let traits: MethodTraits = [.mutates]
    typealias Params = SleepParams
    typealias Result = Int
}

/// Counts calls: an observable side effect for idempotency tests.
enum Increment: RPCMethod, TestDocumented {
    static let name = "test.increment"
    static let traits: MethodTraits = [.mutates]
    typealias Params = SleepParams
    typealias Result = Int
}

/// Sends `ticks` notifications during and after the call.
enum Ticker: RPCMethod, TestDocumented {
    static let name = "test.ticker"
    typealias Params = SleepParams
    typealias Result = NoResult
    static let notifications: [any RPCNotification.Type] = [Tick.self]
}

enum Tick: RPCNotification, TestDocumented {
    static let name = "test.tick"
    typealias Payload = TickPayload
}

/// Returns a result that breaks its own schema (for --validate-results).
enum Broken: RPCMethod, TestDocumented {
    static let name = "test.broken"
    typealias Params = NoParams
    typealias Result = LyingResult
}

/// Claims to be a string, writes a number: a handler that breaks its own schema.
struct LyingResult: JSONCodable, JSONSchemaProvider, Sendable {
    static var schemaReference: JSONValue { ["type": "string"] }
    init() {}
    init(json: JSONElement) throws(JSONDecodingError) {}
    func encode(to writer: inout JSONWriter) { writer.int(42) }
}

/// Throws an unexpected Swift error (becomes an internal error).
enum Crash: RPCMethod, TestDocumented {
    static let name = "test.crash"
    typealias Params = NoParams
    typealias Result = Int
}

/// An ordered step that takes a while.
enum SlowStep: RPCMethod, TestDocumented {
    static let name = "test.slowStep"
    static let traits: MethodTraits = [.ordered]
    typealias Params = SleepParams
    typealias Result = Int
}

/// An ordered step that answers at once.
enum QuickStep: RPCMethod, TestDocumented {
    static let name = "test.quickStep"
    static let traits: MethodTraits = [.ordered]
    typealias Params = NoParams
    typealias Result = Int
}

enum SandboxThing: RPCMethod, TestDocumented {
    static let name = "sandbox.test.thing"
    static let traits: MethodTraits = [.sandboxOnly]
    typealias Params = NoParams
    typealias Result = Int
}

/// Fails with "Store full" (not final for an idempotency key, as the store's own is) on the
/// service's first call of anything counted, then answers the count.
enum FullOnce: RPCMethod, TestDocumented {
    static let name = "test.fullOnce"
    static let traits: MethodTraits = [.mutates]
    typealias Params = NoParams
    typealias Result = Int
}

/// Fails on the service's first call of anything counted, with an error that is final for an
/// idempotency key or not as `final` says; then answers the count.
enum FailOnce: RPCMethod, TestDocumented {
    static let name = "test.failOnce"
    static let traits: MethodTraits = [.mutates]
    typealias Params = FailOnceParams
    typealias Result = Int
}

/// Whether the first failure is final for an idempotency key.
struct FailOnceParams: JSONModel, Equatable {
    var final: Bool

    static var fieldOrder: [String] { ["final"] }
    static var schemaReference: JSONValue { ["$ref": "#/definitions/test.FailOnceParams"] }
    static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        definitions.insert(
            "test.FailOnceParams",
            schema: [
                "type": "object", "additionalProperties": false, "required": ["final"],
                "properties": ["final": ["type": "boolean"]],
            ])
    }
    init(json: JSONElement) throws(JSONDecodingError) {
        var final: Bool?
        for (name, value) in json.objectMembers where name.stringEquals("final") { final = try Bool(json: value) }
        guard let final else { throw .missing("final") }
        self.final = final
    }
    func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("final", final)
        writer.endObject()
    }
}

struct UnexpectedFailure: Error {}

/// A counter shared by the test methods.
final class Counter: Sendable {
    private let value = Lock(0)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
    var current: Int { value.withLock { $0 } }
}

/// The test-only service.
struct TestService: RPCService {
    let counter = Counter()

    func register(on router: inout RouterBuilder) {
        router.registerInline(Subtract.self) { params, _ in params.minuend - params.subtrahend }
        router.registerInline(Sum.self) { params, _ in params.values.reduce(0, +) }
        router.registerInline(Update.self) { _, _ in NoResult() }
        router.registerInline(NotifyHello.self) { _, _ in NoResult() }
        router.registerInline(NotifySum.self) { _, _ in NoResult() }
        router.registerInline(GetData.self) { _, _ in ["hello", 5] }
        router.register(Sleep.self) { params, _ in
            try await Task.sleep(for: .milliseconds(params.ms))
            return params.ms
        }
        let counter = self.counter
        router.register(Increment.self) { params, _ in
            try await Task.sleep(for: .milliseconds(params.ms))
            return counter.next()
        }
        router.register(Ticker.self) { params, context in
            context.notify(Tick.self, TickPayload(count: 1))
            let connection = context.connection
            connection.loop.schedule(after: .milliseconds(params.ms)) {
                connection.notify(Tick.self, TickPayload(count: 2))
            }
            return NoResult()
        }
        router.registerInline(Broken.self) { _, _ in LyingResult() }
        router.registerInline(Crash.self) { _, _ in throw UnexpectedFailure() }
        router.registerInline(SandboxThing.self) { _, _ in 1 }
        router.register(SlowStep.self) { params, _ in
            try await Task.sleep(for: .milliseconds(params.ms))
            return counter.next()
        }
        router.registerInline(QuickStep.self) { _, _ in counter.next() }
        router.register(FullOnce.self) { _, _ in
            let count = counter.next()
            if count == 1 {
                var error = RPCError(.storeFull, "Store full", data: ["type": "storeFull"])
                error.isFinal = false
                throw error
            }
            return count
        }
        router.register(FailOnce.self) { params, _ in
            let count = counter.next()
            if count == 1 {
                var error = RPCError(-33999, "Backend unavailable")
                error.isFinal = params.final
                throw error
            }
            return count
        }
    }
}
