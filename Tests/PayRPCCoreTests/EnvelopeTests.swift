import PayRPCCore
import PayRPCJSON
import PayRPCTestSupport
import Testing

/// How the engine reads a request object's envelope (`jsonrpc`, `id`, `method`, `params`) in its
/// one walk over the members: order, repeats, escaped names, unknown members, the kinds of id and
/// params, and the same requests inside a batch. Wrong envelopes first.
@Suite struct EnvelopeTests {
    func makeClient() throws -> (EngineHarness, TestConnection) {
        let harness = try EngineHarness(services: [TestService()])
        return (harness, harness.connect())
    }

    /// Sends `line` and returns the one line it is answered with.
    func answer(_ client: TestConnection, _ line: String) async throws -> String {
        client.send(line)
        return try #require(await client.nextLine(), "no answer to \(line)")
    }

    @Test(arguments: [
        // jsonrpc missing, wrong, not a string, or right only in an earlier repeat.
        #"{"id":1,"method":"rpc.health"}"#,
        #"{"jsonrpc":"2.1","id":1,"method":"rpc.health"}"#,
        #"{"jsonrpc":2.0,"id":1,"method":"rpc.health"}"#,
        #"{"jsonrpc":"2.0","jsonrpc":"1.0","id":1,"method":"rpc.health"}"#,
        #"{"jsonrpc":"2.00","id":1,"method":"rpc.health"}"#,
        #"{"jsonrpc":"2.","id":1,"method":"rpc.health"}"#,
        // method missing, not a string.
        #"{"jsonrpc":"2.0","id":1}"#,
        #"{"jsonrpc":"2.0","id":1,"method":7}"#,
        #"{"jsonrpc":"2.0","id":1,"method":null}"#,
        #"{"jsonrpc":"2.0","id":1,"method":["rpc.health"]}"#,
        // params neither structured nor null.
        #"{"jsonrpc":"2.0","id":1,"method":"rpc.health","params":"x"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"rpc.health","params":0}"#,
    ])
    func wrongEnvelopesAreInvalidRequestsThatKeepTheID(line: String) async throws {
        let (_, client) = try makeClient()
        let response = try JSONValue(parsing: try await answer(client, line))
        #expect(response["error"]?["code"] == -32600, "\(line)")
        #expect(response["id"] == 1, "\(line)")
    }

    @Test(arguments: [
        #"{"jsonrpc":"2.0","id":true,"method":"rpc.health"}"#,
        #"{"jsonrpc":"2.0","id":{},"method":"rpc.health"}"#,
        #"{"jsonrpc":"2.0","id":[],"method":"rpc.health"}"#,
        #"{"jsonrpc":"2.0","id":1,"id":false,"method":"rpc.health"}"#,
    ])
    func idsOfTheWrongKindAreAnsweredWithANullID(line: String) async throws {
        let (_, client) = try makeClient()
        let response = try JSONValue(parsing: try await answer(client, line))
        #expect(response["error"]?["code"] == -32600, "\(line)")
        #expect(response["id"] == .null, "\(line)")
    }

    @Test func unknownAndMisspelledMethodsAreNotFound() async throws {
        let (_, client) = try makeClient()
        for method in ["rpc.healt", "rpc.healthy", "RPC.HEALTH", "rpc.health ", "", "tatra.executePaymenu"] {
            let response = try JSONValue(parsing: try await answer(client, #"{"jsonrpc":"2.0","id":1,"method":"\#(method)"}"#))
            #expect(response["error"]?["code"] == -32601, "\(method)")
        }
    }

    /// Every order of the four members gets the same answer, byte for byte.
    @Test func membersInAnyOrder() async throws {
        let (_, client) = try makeClient()
        let members = [#""jsonrpc":"2.0""#, #""id":"a""#, #""method":"rpc.health""#, #""params":{}"#]
        let expected = try await answer(client, "{" + members.joined(separator: ",") + "}")
        #expect(expected == #"{"jsonrpc":"2.0","id":"a","result":{"status":"SERVING"}}"#)
        for order in Self.permutations(of: Array(members.indices)) {
            let line = "{" + order.map { members[$0] }.joined(separator: ",") + "}"
            #expect(try await answer(client, line) == expected, "\(line)")
        }
    }

    /// A repeated member: the last one counts (as for every other object the engine reads).
    @Test func theLastOfARepeatedMemberCounts() async throws {
        let (_, client) = try makeClient()
        #expect(
            try await answer(client, #"{"jsonrpc":"1.0","jsonrpc":"2.0","id":1,"id":2,"method":"nothing","method":"rpc.health"}"#)
                == #"{"jsonrpc":"2.0","id":2,"result":{"status":"SERVING"}}"#)
        #expect(
            try await answer(client, #"{"jsonrpc":"2.0","id":3,"method":"rpc.health","params":"x","params":{}}"#)
                == #"{"jsonrpc":"2.0","id":3,"result":{"status":"SERVING"}}"#)
        #expect(
            try await answer(client, #"{"jsonrpc":"2.0","id":4,"method":"rpc.health","params":{},"params":null}"#)
                == #"{"jsonrpc":"2.0","id":4,"result":{"status":"SERVING"}}"#)
    }

    /// Member names and the method's name written with escapes mean what they spell; unknown
    /// members, and names that only look like the envelope's, are ignored.
    @Test func escapedNamesAndUnknownMembers() async throws {
        let (_, client) = try makeClient()
        let expected = #"{"jsonrpc":"2.0","id":5,"result":{"status":"SERVING"}}"#
        for line in [
            #"{"json\u0072pc":"2.0","\u0069d":5,"m\u0065thod":"rpc.h\u0065alth"}"#,
            #"{"jsonrpc":"\u0032.0","id":5,"method":"rpc.health","p\u0061rams":{}}"#,
            #"{"x":{"jsonrpc":"1.0","id":9},"jsonrpc":"2.0","id":5,"Method":1,"method":"rpc.health","ids":[],"param":7}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"rpc.health","jsonrpc2":"x","i":1,"methods":2,"paramz":3}"#,
        ] {
            #expect(try await answer(client, line) == expected, "\(line)")
        }
    }

    @Test func idKindsAreEchoedAndAnAbsentIDIsANotification() async throws {
        let (_, client) = try makeClient()
        for id in [#""""#, #""x""#, "0", "-1.5e3", "null", "18446744073709551616"] {
            #expect(
                try await answer(client, #"{"jsonrpc":"2.0","id":\#(id),"method":"rpc.health"}"#)
                    == #"{"jsonrpc":"2.0","id":\#(id),"result":{"status":"SERVING"}}"#)
        }
        // Not answered: the next answer is the request's after it.
        client.send(#"{"jsonrpc":"2.0","method":"rpc.health"}"#)
        client.send(#"{"jsonrpc":"2.0","method":"nothing.here"}"#)
        client.send(#"{"jsonrpc":"2.0","method":"rpc.health","params":[1]}"#)
        #expect(
            try await answer(client, #"{"jsonrpc":"2.0","id":6,"method":"rpc.health"}"#)
                == #"{"jsonrpc":"2.0","id":6,"result":{"status":"SERVING"}}"#)
    }

    @Test func paramsAbsentNullEmptyOrWithMembers() async throws {
        let (_, client) = try makeClient()
        for params in ["", #","params":null"#, #","params":{}"#, #","params":[]"#] {
            #expect(
                try await answer(client, #"{"jsonrpc":"2.0","id":1,"method":"rpc.health"\#(params)}"#)
                    == #"{"jsonrpc":"2.0","id":1,"result":{"status":"SERVING"}}"#, "\(params)")
        }
        for params in [#"{"x":1}"#, "[1]", #"{"_meta":{},"x":1}"#] {
            let response = try JSONValue(
                parsing: try await answer(client, #"{"jsonrpc":"2.0","id":1,"method":"rpc.health","params":\#(params)}"#))
            #expect(response["error"]?["code"] == -32602, "\(params)")
        }
        #expect(
            try await answer(client, #"{"jsonrpc":"2.0","id":2,"method":"sum","params":[1,2]}"#)
                == #"{"jsonrpc":"2.0","id":2,"result":3}"#)
        #expect(
            try await answer(client, #"{"jsonrpc":"2.0","id":3,"method":"rpc.health","params":{"_meta":{}}}"#)
                == #"{"jsonrpc":"2.0","id":3,"result":{"status":"SERVING"}}"#)
    }

    /// A batch's members are read as single requests are: the same answers, gathered.
    @Test func batchMembersAreReadAsSingleRequests() async throws {
        let (_, client) = try makeClient()
        let members = [
            #"{"id":1,"method":"rpc.health","jsonrpc":"2.0"}"#,
            #"{"jsonrpc":"2.0","id":2,"id":true,"method":"rpc.health"}"#,
            #"{"jsonrpc":"2.0","method":"rpc.health"}"#,
            #"{"jsonrpc":"2.0","id":"4","method":"rpc.healthy"}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"rpc.health","params":[1]}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"rpc.health","params":"x"}"#,
        ]
        var singles: [String] = []
        for member in members where member != #"{"jsonrpc":"2.0","method":"rpc.health"}"# {
            singles.append(try await answer(client, member))
        }
        #expect(
            try await answer(client, "[" + members.joined(separator: ",") + "]") == "[" + singles.joined(separator: ",") + "]")
    }

    static func permutations(of items: [Int]) -> [[Int]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(of: rest).map { [first] + $0 }
        }
    }
}
