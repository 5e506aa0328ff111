import PayRPCCore
import PayRPCMCP
import PayRPCJSON
import PayRPCSandbox
import PayRPCSchema
import PayRPCTestSupport
import Testing

/// Throws state away: mutating and destructive.
private enum Wipe: RPCMethod, TestDocumented {
    static let name = "traits.wipe"
    static let traits: MethodTraits = [.mutates, .destructive]
    typealias Params = NoParams
    typealias Result = NoResult
}

/// Declares every trait.
private enum Everything: RPCMethod, TestDocumented {
    static let name = "traits.everything"
    static let traits: MethodTraits = [
        .runsInline, .allowedBeforeAuthentication, .mutates, .destructive, .sandboxOnly, .changesSandboxControls,
        .answersWaitingCall, .ordered,
    ]
    typealias Params = NoParams
    typealias Result = NoResult
}

private struct TraitsService: RPCService {
    func register(on router: inout RouterBuilder) {
        router.registerInline(Wipe.self) { _, _ in NoResult() }
        router.registerInline(Everything.self) { _, _ in NoResult() }
        router.registerInline(Subtract.self) { params, _ in params.minuend - params.subtrahend }  // declares no trait
    }
}

/// A method's one `traits` line is what the engine, `rpc.discover` and the MCP face read.
@Suite struct MethodTraitsTests {
    let router: Router

    init() throws {
        var builder = RouterBuilder()
        TraitsService().register(on: &builder)
        router = try builder.build(validateResults: false)
    }

    /// Each flag the engine reads, in the order `MethodTraits` lists them.
    func flags(_ name: String) throws -> [Bool] {
        let method = try #require(router.method(named: name))
        return [
            method.allowedBeforeAuthentication, method.mutates, method.destructive, method.sandboxOnly,
            method.changesSandboxControls, method.answersWaitingCall, method.ordered,
        ]
    }

    @Test("no traits reads false for each flag; every trait reads true for each")
    func eachFlagReadsItsOwnTrait() throws {
        #expect(try flags("subtract") == Array(repeating: false, count: 7))
        #expect(try flags("traits.everything") == Array(repeating: true, count: 7))
        #expect(try flags("traits.wipe") == [false, true, true, false, false, false, false])
    }

    @Test("[.mutates, .destructive] is mutating and destructive in the OpenRPC entry and the MCP annotations")
    func mutatingAndDestructiveArePublished() throws {
        guard case .array(let methods)? = OpenRPCBuilder(router: router, version: "0").document()["methods"] else {
            Issue.record("no methods")
            return
        }
        let entries = Dictionary(uniqueKeysWithValues: methods.map { ($0["name"]!.stringValue!, $0) })
        #expect(entries["traits.wipe"]?["x-mutates"] == true)
        #expect(entries["traits.wipe"]?["x-destructive"] == true)
        #expect(entries["traits.wipe"]?["x-sandbox-only"] == nil && entries["traits.wipe"]?["x-ordered"] == nil)
        #expect(entries["subtract"]?["x-mutates"] == false)
        #expect(entries["subtract"]?["x-destructive"] == nil)

        guard case .array(let tools)? = try MCPToolCatalog(router: router).document["tools"] else {
            Issue.record("no tools")
            return
        }
        let annotations = Dictionary(uniqueKeysWithValues: tools.map { ($0["name"]!.stringValue!, $0["annotations"]) })
        #expect(annotations["traits_wipe"] == ["readOnlyHint": false, "destructiveHint": true, "idempotentHint": false])
        #expect(annotations["subtract"] == ["readOnlyHint": true])
    }
}
