import PayRPCCore
import PayRPCJSON
import PayRPCTestSupport
import Testing

/// Every example of the JSON-RPC 2.0 specification (section 7), against the real engine.
@Suite struct SpecificationExampleTests {
    let harness: EngineHarness
    let client: TestConnection

    init() throws {
        harness = try EngineHarness(services: [TestService()])
        client = harness.connect()
    }

    func exchange(_ line: String) async -> JSONValue? {
        client.send(line)
        return await client.nextMessage()
    }

    @Test func positionalParameters() async throws {
        #expect(
            await exchange(#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#)
                == ["jsonrpc": "2.0", "id": 1, "result": 19])
        #expect(
            await exchange(#"{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}"#)
                == ["jsonrpc": "2.0", "id": 2, "result": -19])
    }

    @Test func namedParameters() async throws {
        #expect(
            await exchange(#"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#)
                == ["jsonrpc": "2.0", "id": 3, "result": 19])
        #expect(
            await exchange(#"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#)
                == ["jsonrpc": "2.0", "id": 4, "result": 19])
    }

    @Test func notificationsAreNotAnswered() async throws {
        client.send(#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#)
        client.send(#"{"jsonrpc": "2.0", "method": "foobar"}"#)
        // A request after them is the first thing answered.
        #expect(await exchange(#"{"jsonrpc":"2.0","method":"rpc.health","id":"after"}"#)?["id"] == "after")
        #expect(client.unreadLines.isEmpty)
    }

    @Test func nonExistentMethod() async throws {
        let response = try #require(await exchange(#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#))
        #expect(response["error"]?["code"] == -32601)
        #expect(response["id"] == "1")
    }

    @Test func invalidJSON() async throws {
        let response = try #require(await exchange(#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#))
        #expect(response["error"]?["code"] == -32700)
        #expect(response["id"] == .null)
    }

    @Test func invalidRequestObject() async throws {
        let response = try #require(await exchange(#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#))
        #expect(response["error"]?["code"] == -32600)
        #expect(response["id"] == .null)
    }

    @Test func batchWithInvalidJSON() async throws {
        let response = try #require(
            await exchange(#"[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},{"jsonrpc": "2.0", "method""#))
        #expect(response["error"]?["code"] == -32700)
        #expect(response["id"] == .null)
    }

    @Test func emptyBatch() async throws {
        let response = try #require(await exchange("[]"))
        #expect(response["error"]?["code"] == -32600)
        #expect(response["id"] == .null)
    }

    @Test func invalidBatchOfOne() async throws {
        let response = try #require(await exchange("[1]"))
        guard case .array(let members) = response else {
            Issue.record("not an array: \(response)")
            return
        }
        #expect(members.count == 1)
        #expect(members[0]["error"]?["code"] == -32600)
        #expect(members[0]["id"] == .null)
    }

    @Test func invalidBatchOfThree() async throws {
        let response = try #require(await exchange("[1,2,3]"))
        guard case .array(let members) = response else {
            Issue.record("not an array: \(response)")
            return
        }
        #expect(members.count == 3)
        #expect(members.allSatisfy { $0["error"]?["code"] == -32600 && $0["id"] == .null })
    }

    @Test func mixedBatch() async throws {
        let response = try #require(
            await exchange(
                """
                [{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},\
                {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},\
                {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},\
                {"foo": "boo"},\
                {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},\
                {"jsonrpc": "2.0", "method": "get_data", "id": "9"}]
                """))
        guard case .array(let members) = response else {
            Issue.record("not an array: \(response)")
            return
        }
        #expect(members.count == 5)
        func member(id: JSONValue) -> JSONValue? { members.first { $0["id"] == id } }
        #expect(member(id: "1")?["result"] == 7)
        #expect(member(id: "2")?["result"] == 19)
        #expect(member(id: .null)?["error"]?["code"] == -32600)
        #expect(member(id: "5")?["error"]?["code"] == -32601)
        #expect(member(id: "9")?["result"] == ["hello", 5])
    }

    @Test func batchOfNotificationsProducesNothing() async throws {
        client.send(
            #"[{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]"#
        )
        #expect(await exchange(#"{"jsonrpc":"2.0","method":"rpc.health","id":0}"#)?["id"] == 0)
        #expect(client.unreadLines.isEmpty)
    }
}
