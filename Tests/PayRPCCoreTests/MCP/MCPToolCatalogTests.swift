import PayRPCCore
import PayRPCMCP
import PayRPCJSON
import PayRPCTestSupport
import PayRPCSchema
import Testing

/// The tools generated from a router: names, schemas, annotations, and the methods that cannot be tools.
@Suite struct MCPToolCatalogTests {
    func catalog(sandbox: Bool = true) throws -> [String: JSONValue] {
        var configuration = EngineConfiguration()
        configuration.sandbox = sandbox
        let harness = try EngineHarness(services: [TestService()], configuration: configuration)
        guard case .array(let tools)? = try MCPToolCatalog(router: harness.engine.router).document["tools"] else {
            Issue.record("no tools")
            return [:]
        }
        return Dictionary(uniqueKeysWithValues: tools.map { ($0["name"]!.stringValue!, $0) })
    }

    @Test func oneToolPerMethodSortedWithDotsAsUnderscores() throws {
        let harness = try EngineHarness(services: [TestService()])
        let document = try MCPToolCatalog(router: harness.engine.router).document
        guard case .array(let tools)? = document["tools"] else {
            Issue.record("no tools")
            return
        }
        let names = tools.map { $0["name"]!.stringValue! }
        #expect(names == names.sorted())
        #expect(names.contains("test_sleep") && names.contains("sandbox_test_thing") && names.contains("rpc_health"))
        #expect(names.contains("session_takeNotifications"))
        #expect(!names.contains { $0.contains("cancelRequest") }, "MCP cancels with notifications/cancelled")
        #expect(names.count == harness.engine.router.methods.count)  // minus $/cancelRequest, plus the session tool
    }

    @Test func outputSchemasAreObjectsWrappingOtherResults() throws {
        let tools = try catalog()
        let subtract = try #require(tools["subtract"]?["outputSchema"])
        #expect(subtract["properties"]?["result"]?["type"] == "integer")
        #expect(subtract["required"] == ["result"] && subtract["additionalProperties"] == false)
        let health = try #require(tools["rpc_health"])
        #expect(health["outputSchema"]?["type"] == "object")
        #expect(health["outputSchema"]?["properties"]?["status"] != nil, "an object result is not wrapped")
        for (name, tool) in tools {
            #expect(tool["inputSchema"]?["type"] == "object", "\(name)")
            #expect(tool["outputSchema"]?["type"] == "object", "\(name)")
        }
    }

    @Test func annotationsFollowMutatesAndSandboxMarks() throws {
        let tools = try catalog()
        #expect(tools["subtract"]?["annotations"] == ["readOnlyHint": true])
        #expect(
            tools["test_increment"]?["annotations"] == ["readOnlyHint": false, "destructiveHint": false, "idempotentHint": false])
        #expect(tools["sandbox_test_thing"]?["_meta"]?["payrpc/sandboxOnly"] == true)
        #expect(tools["sandbox_test_thing"]?["description"]?.stringValue?.hasPrefix("Sandbox only. ") == true)
        #expect(tools["test_ticker"]?["_meta"]?["payrpc/notifications"] == ["test.tick"])
        #expect(tools["test_ticker"]?["description"]?.stringValue?.contains("session_takeNotifications") == true)
    }

    @Test func theNotificationsToolIsTypedByTheRoutersNotifications() throws {
        let tools = try catalog()
        let take = try #require(tools["session_takeNotifications"])
        let branches = take["outputSchema"]?["properties"]?["notifications"]?["items"]?["anyOf"]
        guard case .array(let forms)? = branches else {
            Issue.record("no branches")
            return
        }
        let methods = forms.compactMap { $0["properties"]?["method"]?["const"]?.stringValue }
        #expect(methods.contains("test.tick"))
        let output = try CompiledSchema(try #require(take["outputSchema"]))
        #expect(
            output.isValid(
                try JSONValue(parsing: #"{"notifications":[{"method":"test.tick","params":{"count":1}}],"dropped":0}"#)))
        #expect(
            !output.isValid(
                try JSONValue(parsing: #"{"notifications":[{"method":"test.tick","params":{"count":"x"}}],"dropped":0}"#)))
    }

    @Test func aMethodWithoutAValidToolNameIsAStartUpError() throws {
        var builder = RouterBuilder()
        builder.registerInline(Spaced.self) { _, _ in 1 }
        let router = try builder.build(validateResults: false)
        #expect(throws: RouterBuildError.self) { try MCPToolCatalog(router: router) }

        var clash = RouterBuilder()
        clash.registerInline(Dotted.self) { _, _ in 1 }
        clash.registerInline(Underscored.self) { _, _ in 1 }
        #expect(throws: RouterBuildError.self) { try MCPToolCatalog(router: try clash.build(validateResults: false)) }
    }
}

enum Spaced: RPCMethod, TestDocumented {
    static let name = "test.has space"
    typealias Params = NoParams
    typealias Result = Int
}

enum Dotted: RPCMethod, TestDocumented {
    static let name = "clash.a"
    typealias Params = NoParams
    typealias Result = Int
}

enum Underscored: RPCMethod, TestDocumented {
    static let name = "clash_a"
    typealias Params = NoParams
    typealias Result = Int
}
