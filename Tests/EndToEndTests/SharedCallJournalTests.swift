import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The call journal across gateways on one PostgreSQL database: a profile's journal is one journal
/// whichever gateway served each call, an entry written through one gateway is verified and waited
/// for through another, and a token sees and clears only its own profiles' journals.
@Suite(.serialized) struct SharedCallJournalTests {
    /// A client of `gateway` that said `rpc.hello` with `token` for `profile`.
    static func client(_ address: String, token: String, profile: String) throws -> SocketClient {
        let client = try SocketClient(tcp: address, timeout: 30)
        let hello = try call(client, "rpc.hello", ["token": .string(token), "profile": .string(profile)])
        #expect(hello["result"]?["profile"] == .string(profile))
        return client
    }

    /// One call and its answer.
    static func call(_ client: SocketClient, _ method: String, _ params: JSONValue? = nil, id: String = "1") throws -> JSONValue {
        var members: [JSONValue.Member] = [.init("jsonrpc", "2.0"), .init("id", .string(id)), .init("method", .string(method))]
        if let params { members.append(.init("params", params)) }
        try client.send(JSONValue.object(members).jsonText + "\n")
        while let line = try client.readLine() {
            let message = try JSONValue(parsing: line)
            if message["id"] == .string(id) { return message }
        }
        return .null
    }

    @Test func callsOnOneGatewayAreVerifiedAndWaitedForOnAnother() async throws {
        let tokens = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)")
        try "team-a-7f3c9e alice\nteam-b-2d81aa bob\n".write(to: tokens, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: tokens) }
        let arguments = ["--tcp", "127.0.0.1:0", "--auth-token-file", tokens.path]
        let url = try await SharedDatabase.migrated()
        let a = try await SharedDatabase.gateway(url, arguments)
        let b = try await SharedDatabase.gateway(url, arguments)
        let addressA = try #require(await a.listeningAddress()), addressB = try #require(await b.listeningAddress())
        let onA = try Self.client(addressA, token: "team-a-7f3c9e", profile: "alice")
        let onB = try Self.client(addressB, token: "team-a-7f3c9e", profile: "alice")
        _ = try Self.call(onB, "sandbox.calls.clear")

        // B waits first; A's call wakes it (the flush's NOTIFY, no polling), within the bound docs/calls.md states.
        try onB.send(
            #"{"jsonrpc":"2.0","id":"w","method":"sandbox.calls.wait","params":{"match":{"method":"tatra.fetchSetupData"},"timeoutMs":5000}}"#
                + "\n")
        #expect(try Self.call(onA, "tatra.fetchSetupData", id: "a1")["result"] != nil)
        let waited = try #require(try onB.readLine().flatMap { try? JSONValue(parsing: $0) })
        #expect(waited["id"] == "w")
        #expect(waited.value(at: "/result/entries/0/method") == "tatra.fetchSetupData")
        #expect(waited.value(at: "/result/entries/0/gateway") != nil)

        // B's own call and A's are one journal, read through either gateway: B's entry is on A
        // within B's flush interval and a commit (the wait's bound, 5 s, is what the test holds it to on a loaded machine).
        _ = try Self.call(onB, "tatra.fetchSetupData", id: "b1")
        let both = try Self.call(
            onA, "sandbox.calls.wait", ["match": ["method": "tatra.fetchSetupData"], "count": 2, "timeoutMs": 5000])
        #expect(both.value(at: "/result/entries/1") != nil, "\(both)")
        let verified = try Self.call(onA, "sandbox.calls.verify", ["match": ["method": "tatra.fetchSetupData"], "times": 2])
        #expect(verified["result"]?["matched"] == 2, "\(verified)")
        let listed = try Self.call(onB, "sandbox.calls.list", ["method": "tatra.fetchSetupData"])
        let gateways = Set((listed.value(at: "/result/entries")?.arrayValue ?? []).compactMap { $0["gateway"]?.stringValue })
        #expect(gateways.count == 2, "each gateway's entry is marked with its gateway: \(listed)")

        // Another tenant sees only its profile's journal, and clearing it leaves alice's alone.
        let other = try SocketClient(tcp: addressB, timeout: 30)
        let refused = try Self.call(other, "rpc.hello", ["token": "team-b-2d81aa", "profile": "alice"])
        #expect(refused["error"]?["code"] == -32001)
        #expect(try Self.call(other, "sandbox.calls.list")["error"]?["code"] == -32001)
        _ = try Self.call(other, "rpc.hello", ["token": "team-b-2d81aa", "profile": "bob"])
        #expect(
            try Self.call(other, "sandbox.calls.count", ["match": ["method": "tatra.fetchSetupData"]])["result"]?["count"] == 0)
        _ = try Self.call(other, "sandbox.calls.clear")
        #expect(
            try Self.call(onA, "sandbox.calls.count", ["match": ["method": "tatra.fetchSetupData"]])["result"]?["count"] == 2)

        for gateway in [a, b] { gateway.signal(SIGTERM) }
        for gateway in [a, b] { #expect(await gateway.waitForExit() == 0, "\(gateway.logText)") }
    }
}
