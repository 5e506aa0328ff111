import PayRPCCore
import PayRPCMCP
import PayRPCJSON
import PayRPCSandbox
import PayRPCTestSupport
import Testing
import PayRPCSecrets

/// The MCP face over the in-memory transport: the engine's checks, tasks, ordered calls,
/// cancellation, pushes and logging, as tool results.
@Suite struct MCPSessionTests {
    struct Face {
        let harness: EngineHarness
        let server: MCPServer

        init(configuration: EngineConfiguration = EngineConfiguration()) throws {
            harness = try EngineHarness(services: [TestService()], configuration: configuration)
            server = try MCPServer(engine: harness.engine, documents: [MCPDocument(name: "test", text: "# Test\n")])
        }

        /// A connection past the handshake.
        func connect(transport: TransportKind = .memory) async throws -> TestConnection {
            let connection = harness.connect(transport: transport, handlers: server)
            let answer = try await connection.call(
                "initialize",
                [
                    "protocolVersion": "2025-11-25", "capabilities": [:],
                    "clientInfo": ["name": "test", "version": "1"],
                ])
            #expect(answer["protocolVersion"] == "2025-11-25")
            connection.notify("notifications/initialized")
            return connection
        }
    }

    /// A tool call's result, checked: the text block is the structured content.
    func call(_ connection: TestConnection, _ tool: String, _ arguments: JSONValue = [:]) async throws -> JSONValue {
        let result = try await connection.call("tools/call", ["name": .string(tool), "arguments": arguments])
        let text = try #require(result["content"]?.arrayFirst?["text"]?.stringValue)
        #expect(try JSONValue(parsing: text) == result["structuredContent"])
        return result
    }

    @Test func resultsAndErrorsAreToolResults() async throws {
        let connection = try await Face().connect()
        let subtract = try await call(connection, "subtract", ["minuend": 5, "subtrahend": 2])
        #expect(subtract["structuredContent"] == ["result": 3] && subtract["isError"] == false)
        let invalid = try await call(connection, "subtract", ["minuend": "5"])
        #expect(invalid["isError"] == true && invalid["structuredContent"]?["code"] == -32602)
        let crash = try await call(connection, "test_crash")
        #expect(crash["structuredContent"] == ["code": -32603, "message": "Internal error"])
        let broken = try await call(connection, "test_broken")
        #expect(broken["isError"] == true && broken["structuredContent"]?["code"] == -32007)
        let unknown = await connection.request("tools/call", ["name": "test_nothing"])
        #expect(unknown?["error"]?["code"] == -32602)
    }

    @Test func anArmedFailureAnswersInPlaceOfTheTool() async throws {
        let face = try Face()
        let connection = try await face.connect()
        face.harness.sandbox.arm(
            profile: "default", method: "subtract",
            failure: InjectedFailure(error: RPCError(RPCError.Code(-33000), "Armed")), count: 1)
        let armed = try await call(connection, "subtract", ["minuend": 1, "subtrahend": 1])
        #expect(armed["structuredContent"] == ["code": -33000, "message": "Armed"])
        #expect(try await call(connection, "subtract", ["minuend": 1, "subtrahend": 1])["structuredContent"] == ["result": 0])
    }

    @Test func orderedCallsAnswerInArrivalOrder() async throws {
        let connection = try await Face().connect()
        connection.send(
            #"{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"test_slowStep","arguments":{"ms":50}}}"#)
        connection.send(#"{"jsonrpc":"2.0","id":"quick","method":"tools/call","params":{"name":"test_quickStep"}}"#)
        let first = await connection.nextMessage()
        let second = await connection.nextMessage()
        #expect(first?["id"] == "slow" && first?["result"]?["structuredContent"] == ["result": 1])
        #expect(second?["id"] == "quick" && second?["result"]?["structuredContent"] == ["result": 2])
    }

    @Test func aCancelledCallSendsNothingAndADeadlineIsAToolError() async throws {
        let connection = try await Face().connect()
        connection.send(
            #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"test_sleep","arguments":{"ms":60000}}}"#)
        connection.notify("notifications/cancelled", ["requestId": 7, "reason": "test"])
        let expired = try await connection.call(
            "tools/call",
            [
                "name": "test_sleep", "arguments": ["ms": 60000],
                "_meta": ["timeoutMs": 20],
            ])
        #expect(
            expired["structuredContent"] == ["code": -32003, "message": "Deadline exceeded", "data": ["method": "test.sleep"]])
        connection.endInput()
        #expect(await connection.waitUntilClosed())
        #expect(!connection.unreadLines.contains { $0.contains(#""id":7"#) })
    }

    @Test func pushesAreQueuedTakenAndLoggedWhenOptedIn() async throws {
        let connection = try await Face().connect()
        #expect(try await connection.call("logging/setLevel", ["level": "info"]) == [:])
        _ = try await call(connection, "test_ticker", ["ms": 1])
        let logged = await connection.notification("notifications/message")
        #expect(logged?["level"] == "info" && logged?["data"]?["method"] == "test.tick")
        var taken: [JSONValue] = []
        while taken.count < 2 {
            let take = try await call(connection, "session_takeNotifications", ["waitMs": 60000])
            guard case .array(let items)? = take["structuredContent"]?["notifications"] else {
                Issue.record("no list")
                return
            }
            taken += items
        }
        #expect(taken == [["method": "test.tick", "params": ["count": 1]], ["method": "test.tick", "params": ["count": 2]]])
        let empty = try await call(connection, "session_takeNotifications")
        #expect(empty["structuredContent"] == ["notifications": .array([]), "dropped": 0])
    }

    @Test func aWaitEndsAtTheEndOfInput() async throws {
        let connection = try await Face().connect()
        connection.send(
            #"{"jsonrpc":"2.0","id":"wait","method":"tools/call","params":{"name":"session_takeNotifications","arguments":{"waitMs":60000}}}"#
        )
        connection.endInput()
        let answer = await connection.response(id: "wait")
        #expect(answer?["result"]?["structuredContent"] == ["notifications": .array([]), "dropped": 0])
        #expect(await connection.waitUntilClosed())
    }

    @Test func socketClientsAuthenticateWithTheHelloTool() async throws {
        var configuration = EngineConfiguration()
        configuration.access = AccessControl(try AccessTokens(parsing: "secret"))
        let connection = try await Face(configuration: configuration).connect(transport: .tcp)
        let refused = try await call(connection, "subtract", ["minuend": 1, "subtrahend": 1])
        #expect(refused["structuredContent"]?["code"] == -32001)
        let wrong = try await call(connection, "rpc_hello", ["token": "guess"])
        #expect(wrong["isError"] == true)
        _ = try await call(connection, "rpc_hello", ["token": "secret"])
        #expect(try await call(connection, "subtract", ["minuend": 1, "subtrahend": 1])["structuredContent"] == ["result": 0])
    }

    @Test func sandboxOnlyToolsExistOnlyInSandboxMode() async throws {
        var configuration = EngineConfiguration()
        configuration.sandbox = false
        let connection = try await Face(configuration: configuration).connect()
        let tools = try await connection.call("tools/list")
        guard case .array(let listed)? = tools["tools"] else {
            Issue.record("no tools")
            return
        }
        #expect(!listed.contains { $0["name"] == "sandbox_test_thing" } && listed.contains { $0["name"] == "subtract" })
        #expect(await connection.request("tools/call", ["name": "sandbox_test_thing"])?["error"]?["code"] == -32602)
    }

    @Test func resourcesServeTheDocumentsAndSchemas() async throws {
        let connection = try await Face().connect()
        let read = try await connection.call("resources/read", ["uri": "payrpc://docs/test.md"])
        #expect(read["contents"] == [["uri": "payrpc://docs/test.md", "mimeType": "text/markdown", "text": "# Test\n"]])
        let schema = try await connection.call("resources/read", ["uri": "payrpc://schemas/methods/subtract.json"])
        let text = try #require(schema["contents"]?.arrayFirst?["text"]?.stringValue)
        #expect(try JSONValue(parsing: text)["title"] == "subtract")
    }
}

extension JSONValue {
    /// The first element of an array.
    var arrayFirst: JSONValue? {
        if case .array(let values) = self { return values.first }
        return nil
    }
}
