import PayRPCCore
import PayRPCJSON
import PayRPCTestSupport
import Testing
import PayRPCSecrets

/// The engine beyond the specification's examples: ids, params, metadata, limits, push,
/// authentication, and what a handler's failure turns into.
@Suite struct EngineBehaviourTests {
    func makeClient(
        _ configure: (inout EngineConfiguration) -> Void = { _ in },
        transport: TransportKind = .memory,
        idempotency: (any IdempotencyStore)? = nil
    ) throws -> (EngineHarness, TestConnection, TestService) {
        var configuration = EngineConfiguration()
        configure(&configuration)
        let service = TestService()
        let harness = try EngineHarness(services: [service], configuration: configuration, idempotency: idempotency)
        return (harness, harness.connect(transport: transport), service)
    }

    @Test(arguments: [
        "12345678901234567890123456789",
        "-0.5e+300",
        #""caf\u00e9 ☕ 𝄞 \"quoted\"""#,
        "null",
        "0",
    ])
    func idsAreEchoedByteForByte(id: String) async throws {
        let (_, client, _) = try makeClient()
        client.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"rpc.health"}"#)
        let line = try #require(await client.nextLine())
        #expect(line.hasPrefix(#"{"jsonrpc":"2.0","id":\#(id),"result":"#))
    }

    @Test(arguments: [#"{"a":1}"#, "[1]", "true"])
    func idsOfTheWrongTypeAreInvalidRequests(id: String) async throws {
        let (_, client, _) = try makeClient()
        client.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"rpc.health"}"#)
        let response = try #require(await client.nextMessage())
        #expect(response["error"]?["code"] == -32600)
        #expect(response["id"] == .null)
    }

    @Test func missingVersionIsAnInvalidRequestThatKeepsTheID() async throws {
        let (_, client, _) = try makeClient()
        client.send(#"{"id":7,"method":"rpc.health"}"#)
        let response = try #require(await client.nextMessage())
        #expect(response["error"]?["code"] == -32600)
        #expect(response["id"] == 7)
    }

    @Test func scalarsAreInvalidRequests() async throws {
        let (_, client, _) = try makeClient()
        client.send("42")
        #expect(await client.nextMessage()?["error"]?["code"] == -32600)
    }

    /// `"params": null` is read as absent (as jsonrpsee and go-ethereum read it), so a stock
    /// client's call without arguments works: the same answer as without the member.
    @Test func nullParamsAreReadAsAbsent() async throws {
        let (_, client, _) = try makeClient()
        for method in ["rpc.health", "sum", "subtract", "nothing.here"] {
            client.send(#"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":null}"#)
            let withNull = try #require(await client.nextLine())
            client.send(#"{"jsonrpc":"2.0","id":1,"method":"\#(method)"}"#)
            let absent = try #require(await client.nextLine())
            #expect(withNull == absent, "\(method)")
        }
        client.send(#"{"jsonrpc":"2.0","id":2,"method":"sum","params":null}"#)
        #expect(try #require(await client.nextMessage())["result"] == 0)
        // A notification with null params is run and not answered: the next answer is the health check's.
        client.send(#"{"jsonrpc":"2.0","method":"update","params":null}"#)
        #expect(try await client.call("rpc.health") == ["status": "SERVING"])
    }

    /// Every other `params` that is neither an object nor an array stays an invalid request.
    @Test(arguments: [#""x""#, "1", "true", "false"])
    func otherUnstructuredParamsAreInvalidRequests(params: String) async throws {
        let (_, client, _) = try makeClient()
        client.send(#"{"jsonrpc":"2.0","id":5,"method":"rpc.health","params":\#(params)}"#)
        let response = try #require(await client.nextMessage())
        #expect(response["error"]?["code"] == -32600)
        #expect(response["error"]?["data"]?["detail"] == "params must be an object or an array")
        #expect(response["id"] == 5)
    }

    @Test func invalidUTF8IsAParseError() async throws {
        let (_, client, _) = try makeClient()
        var bytes = Array(#"{"jsonrpc":"2.0","id":1,"method":"rpc.health","params":{"x":"?"}}"#.utf8)
        bytes[bytes.firstIndex(of: UInt8(ascii: "?"))!] = 0xFF
        client.send(bytes: bytes)
        let response = try #require(await client.nextMessage())
        #expect(response["error"]?["code"] == -32700)
        #expect(response["id"] == .null)
        #expect(try await client.call("rpc.health") == ["status": "SERVING"])
    }

    @Test func everyViolationOfTheParamsIsListed() async throws {
        let (_, client, _) = try makeClient()
        let response = try #require(await client.request("subtract", ["minuend": "x", "extra": true]))
        #expect(response["error"]?["code"] == -32602)
        guard case .array(let violations)? = response["error"]?["data"]?["violations"] else {
            Issue.record("no violations in \(response)")
            return
        }
        let pointers = Set(violations.compactMap { $0["pointer"]?.stringValue })
        #expect(pointers.contains("/minuend"))
        #expect(violations.count >= 2)  // minuend's type, subtrahend missing, extra member
    }

    @Test func tooManyPositionalParams() async throws {
        let (_, client, _) = try makeClient()
        let response = try #require(await client.request("subtract", [1, 2, 3]))
        #expect(response["error"]?["code"] == -32602)
    }

    @Test func aliasesReachTheSameHandler() async throws {
        let (_, client, _) = try makeClient()
        #expect(try await client.call("test.sum", [1, 2]) == 3)
        #expect(try await client.call("sum", [1, 2]) == 3)
    }

    @Test func metaIsRemovedBeforeTheMethodSeesItsParams() async throws {
        let (_, client, _) = try makeClient()
        #expect(try await client.call("sum", ["a": 1, "_meta": ["traceparent": "00-abc-def-01"]]) == 1)
    }

    @Test func metaOfTheWrongTypeIsNamed() async throws {
        let (_, client, _) = try makeClient()
        let response = try #require(await client.request("sum", ["_meta": ["timeoutMs": "soon"]]))
        #expect(response["error"]?["code"] == -32602)
        #expect(response["error"]?["data"]?["violations"]?.jsonText.contains("/_meta/timeoutMs") == true)
    }

    @Test func responsesMayCompleteOutOfOrder() async throws {
        let (_, client, _) = try makeClient()
        client.send(#"{"jsonrpc":"2.0","id":"slow","method":"test.sleep","params":{"ms":300}}"#)
        client.send(#"{"jsonrpc":"2.0","id":"fast","method":"test.sleep","params":{"ms":1}}"#)
        #expect(await client.nextMessage()?["id"] == "fast")
        #expect(await client.nextMessage()?["id"] == "slow")
    }

    @Test func orderedMethodsRunInArrivalOrderWhileOthersDoNot() async throws {
        let (_, client, _) = try makeClient()
        client.send(#"{"jsonrpc":"2.0","id":"slow","method":"test.slowStep","params":{"ms":150}}"#)
        client.send(#"{"jsonrpc":"2.0","id":"quick","method":"test.quickStep"}"#)
        client.send(#"{"jsonrpc":"2.0","id":"other","method":"subtract","params":[2,1]}"#)
        // The unordered call does not wait; the quick ordered one waits for the slow one.
        #expect(await client.nextMessage()?["id"] == "other")
        let first = try #require(await client.nextMessage())
        let second = try #require(await client.nextMessage())
        #expect(first["id"] == "slow")
        #expect(second["id"] == "quick")
        #expect(first["result"] == 1)
        #expect(second["result"] == 2)
    }

    @Test func deadlineFromMeta() async throws {
        let (_, client, _) = try makeClient()
        let response = try #require(await client.request("test.sleep", ["ms": 5000, "_meta": ["timeoutMs": 50]]))
        #expect(response["error"]?["code"] == -32003)
    }

    @Test func perMethodDefaultDeadline() async throws {
        let (_, client, _) = try makeClient { $0.methodTimeouts["test.sleep"] = .milliseconds(50) }
        let response = try #require(await client.request("test.sleep", ["ms": 5000]))
        #expect(response["error"]?["code"] == -32003)
    }

    @Test func cancelRequest() async throws {
        let (_, client, _) = try makeClient()
        client.send(#"{"jsonrpc":"2.0","id":"long","method":"test.sleep","params":{"ms":10000}}"#)
        client.notify("$/cancelRequest", ["id": "long"])
        let response = try #require(await client.response(id: "long"))
        #expect(response["error"]?["code"] == -32800)
    }

    /// `$/cancelRequest` sent as a request: both are answered, each on a line of its own (the
    /// cancelled answer used to be written inside the other's result, or abort a debug build).
    @Test func cancelRequestWithAnIdAnswersBoth() async throws {
        let (_, client, _) = try makeClient()
        client.send(#"{"jsonrpc":"2.0","id":"long","method":"test.sleep","params":{"ms":10000}}"#)
        client.send(#"{"jsonrpc":"2.0","id":"cancel","method":"$/cancelRequest","params":{"id":"long"}}"#)
        let cancelled = try #require(await client.response(id: "long"))
        #expect(cancelled["error"]?["code"] == -32800)
        let answer = try #require(await client.response(id: "cancel"))
        #expect(answer["result"] == .null)
        #expect(answer["error"] == nil)
    }

    @Test func inFlightLimitPausesReadingAndEveryRequestIsAnswered() async throws {
        let (_, client, _) = try makeClient { $0.maxInFlight = 2 }
        for index in 0..<6 {
            client.send(#"{"jsonrpc":"2.0","id":\#(index),"method":"test.sleep","params":{"ms":20}}"#)
        }
        var ids: Set<Int> = []
        for _ in 0..<6 {
            if let id = await client.nextMessage()?["id"], let value = Int(id.jsonText) { ids.insert(value) }
        }
        #expect(ids == Set(0..<6))
        #expect(client.pauseCount >= 1)
    }

    @Test func serverPushDuringAndAfterTheCall() async throws {
        let (_, client, _) = try makeClient()
        #expect(try await client.call("test.ticker", ["ms": 30]) == .null)
        #expect(await client.notification("test.tick") == ["count": 1])
        #expect(await client.notification("test.tick") == ["count": 2])
    }

    @Test func endOfInputAnswersWhatWasReadThenCloses() async throws {
        let (_, client, _) = try makeClient()
        client.send(#"{"jsonrpc":"2.0","id":1,"method":"test.sleep","params":{"ms":50}}"#)
        client.endInput()
        #expect(await client.nextMessage()?["result"] == 50)
        #expect(await client.waitUntilClosed())
    }

    @Test func oversizedLineIsAnsweredAndTheConnectionGoesOn() async throws {
        let (_, client, _) = try makeClient()
        client.sendOversizedLine(limit: 1024)
        let response = try #require(await client.nextMessage())
        #expect(response["error"]?["code"] == -32600)
        #expect(response["id"] == .null)
        #expect(try await client.call("rpc.health") == ["status": "SERVING"])
    }

    @Test func batchLimit() async throws {
        let (_, client, _) = try makeClient { $0.maxBatch = 2 }
        client.send(
            #"[{"jsonrpc":"2.0","id":1,"method":"rpc.health"},{"jsonrpc":"2.0","id":2,"method":"rpc.health"},{"jsonrpc":"2.0","id":3,"method":"rpc.health"}]"#
        )
        let response = try #require(await client.nextMessage())
        #expect(response["error"]?["code"] == -32600)
    }

    @Test func batchWithTaskMembersIsAnsweredAsOneArray() async throws {
        let (_, client, _) = try makeClient()
        client.send(
            #"[{"jsonrpc":"2.0","id":1,"method":"test.sleep","params":{"ms":30}},{"jsonrpc":"2.0","id":2,"method":"subtract","params":[5,3]},{"jsonrpc":"2.0","method":"test.sleep","params":{"ms":1}}]"#
        )
        let response = try #require(await client.nextMessage())
        guard case .array(let members) = response else {
            Issue.record("\(response)")
            return
        }
        #expect(members.count == 2)
        #expect(members.contains { $0["id"] == 1 && $0["result"] == 30 })
        #expect(members.contains { $0["id"] == 2 && $0["result"] == 2 })
    }

    @Test func unexpectedErrorsBecomeInternalErrorsWithoutDetail() async throws {
        let (_, client, _) = try makeClient()
        let response = try #require(await client.request("test.crash"))
        #expect(response["error"] == ["code": -32603, "message": "Internal error"])
    }

    @Test func resultsThatBreakTheirSchemaAreCaught() async throws {
        let (_, client, _) = try makeClient()
        let response = try #require(await client.request("test.broken"))
        #expect(response["error"]?["code"] == -32007)
    }

    @Test func sandboxOnlyMethodsAreRefusedOutsideTheSandbox() async throws {
        let (_, client, _) = try makeClient { $0.sandbox = false }
        #expect(await client.request("sandbox.test.thing")?["error"]?["code"] == -32006)
        let (_, sandboxClient, _) = try makeClient()
        #expect(try await sandboxClient.call("sandbox.test.thing") == 1)
    }

    @Test func tokenIsRequiredOnSocketsBeforeAnyOtherMethodButHealth() async throws {
        let (_, client, _) = try makeClient({ $0.access = AccessControl(try! AccessTokens(parsing: "s3cret")) }, transport: .tcp)
        #expect(await client.request("rpc.discover")?["error"]?["code"] == -32001)
        #expect(try await client.call("rpc.health") == ["status": "SERVING"], "a balancer's health check needs no token")
        #expect(await client.request("rpc.hello", ["token": "wrong"])?["error"]?["code"] == -32001)
        let hello = try await client.call("rpc.hello", ["token": "s3cret", "client": "test"])
        #expect(hello["server"] == "payrpc")
        #expect(try await client.call("rpc.health") == ["status": "SERVING"])
    }

    @Test func stdioNeedsNoToken() async throws {
        let (_, client, _) = try makeClient(
            { $0.access = AccessControl(try! AccessTokens(parsing: "s3cret")) }, transport: .stdio)
        #expect(try await client.call("rpc.health") == ["status": "SERVING"])
    }

    @Test func helloSelectsTheProfile() async throws {
        let (_, client, _) = try makeClient()
        #expect(try await client.call("rpc.hello", ["profile": "alice"])["profile"] == "alice")
        #expect(await client.request("rpc.hello", ["profile": "no spaces allowed"])?["error"]?["code"] == -32602)
    }

    @Test func healthSaysNotServingWhileDraining() async throws {
        let (harness, client, _) = try makeClient()
        harness.state.beginDraining()
        #expect(try await client.call("rpc.health") == ["status": "NOT_SERVING"])
    }

    @Test func idempotentCallsRunOnceAndReplayTheFirstAnswer() async throws {
        let store = MemoryIdempotencyStore()
        let (_, client, service) = try makeClient(idempotency: store)
        let first = try await client.call("test.increment", ["ms": 1, "_meta": ["idempotencyKey": "k1"]])
        let second = try await client.call("test.increment", ["ms": 1, "_meta": ["idempotencyKey": "k1"]])
        #expect(first == second)
        #expect(service.counter.current == 1)
        let conflict = await client.request("test.increment", ["ms": 2, "_meta": ["idempotencyKey": "k1"]])
        #expect(conflict?["error"]?["code"] == -32005)
        _ = try await client.call("test.increment", ["ms": 1, "_meta": ["idempotencyKey": "k2"]])
        #expect(service.counter.current == 2)
    }

    @Test func storeFullIsNotKeptAsAnIdempotentAnswer() async throws {
        let store = MemoryIdempotencyStore()
        let (_, client, service) = try makeClient(idempotency: store)
        let full = await client.request("test.fullOnce", ["_meta": ["idempotencyKey": "k1"]])
        #expect(full?["error"]?["code"] == -32008)
        // The retry runs (neither "Store full" replayed nor the key left in progress).
        #expect(try await client.call("test.fullOnce", ["_meta": ["idempotencyKey": "k1"]]) == 2)
        #expect(try await client.call("test.fullOnce", ["_meta": ["idempotencyKey": "k1"]]) == 2)
        #expect(service.counter.current == 2)
    }

    @Test("an error that is not final leaves the key free: the repeat runs; a final one is replayed", arguments: [false, true])
    func onlyFinalErrorsAreKept(_ final: Bool) async throws {
        let store = MemoryIdempotencyStore()
        let (_, client, service) = try makeClient(idempotency: store)
        let params: JSONValue = ["final": .bool(final), "_meta": ["idempotencyKey": "k1"]]
        #expect(await client.request("test.failOnce", params)?["error"]?["code"] == -33999)
        let repeated = await client.request("test.failOnce", params)
        if final {
            #expect(repeated?["error"]?["code"] == -33999)
            #expect(service.counter.current == 1)
        } else {
            #expect(repeated?["result"] == 2)
            // Now the answer is kept.
            #expect(try await client.call("test.failOnce", params) == 2)
            #expect(service.counter.current == 2)
        }
    }

    @Test func discoverListsEveryMethodWithAliases() async throws {
        let (_, client, _) = try makeClient()
        let document = try await client.call("rpc.discover")
        guard case .array(let methods)? = document["methods"] else {
            Issue.record("no methods")
            return
        }
        let sum = methods.first { $0["name"] == "sum" }
        #expect(sum?["x-aliases"] == ["test.sum"])
        #expect(methods.contains { $0["name"] == "rpc.health" })
        #expect(document["x-notifications"]?.jsonText.contains("test.tick") == true)
        // Params are listed in declaration order: the order params given by position map onto.
        let subtract = methods.first { $0["name"] == "subtract" }
        guard case .array(let params)? = subtract?["params"] else {
            Issue.record("no params")
            return
        }
        #expect(params.compactMap { $0["name"]?.stringValue } == ["minuend", "subtrahend"])
    }
}
