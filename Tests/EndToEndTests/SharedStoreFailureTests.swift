import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Spawned gateways on one PostgreSQL database while something fails under load: the database
/// restarted (calls answer -32009 while it is down and succeed again on the same gateway after),
/// and one of two instances killed (the survivor never fails, the killed one restarts and serves).
/// Either way every write a gateway acknowledged is read back through a gateway afterwards.
@Suite struct SharedStoreFailureTests {
    /// A `pbba.submitPaymentRequest` (a durable write) whose request id is its idempotency key.
    static func submitLine(_ key: String) -> String {
        JSONValue.object([
            .init("jsonrpc", "2.0"), .init("id", .string(key)), .init("method", "pbba.submitPaymentRequest"),
            .init("params", SharedStoreTests.submit(key)),
        ]).jsonText
    }

    /// Sends one `submitLine` per key, all at once (pipelined: the gateway runs them concurrently).
    static func submit(_ keys: [String], to gateway: SpawnedServer) {
        gateway.write(Array(keys.map { submitLine($0) + "\n" }.joined().utf8))
    }

    /// The answers `gateway` writes, by request id, until it has answered `count` requests, its
    /// output ends, or it answers nothing for `timeout` seconds.
    static func answers(_ count: Int, from gateway: SpawnedServer, timeout: Double = 60) async -> [String: JSONValue] {
        var answers: [String: JSONValue] = [:]
        while answers.count < count, let message = await gateway.nextMessage(timeout: timeout) {
            if let id = message["id"]?.stringValue { answers[id] = message }
        }
        return answers
    }

    /// The first call connects and prepares the statements: on a machine loaded by the whole
    /// suite it may take a minute. Returns the acknowledged result.
    static func warmUp(_ gateway: SpawnedServer, key: String) async throws -> JSONValue {
        submit([key], to: gateway)
        let answer = await gateway.nextMessage(timeout: 60)
        return try #require(answer?["result"], "\(key) was answered \(answer?.jsonText ?? "nothing"): \(gateway.logText)")
    }

    /// Every acknowledged call is in the store, read through `gateway`: its key answers the same
    /// result again, and the payment request it made reads back.
    static func expectStored(_ acknowledged: [String: JSONValue], through gateway: SpawnedServer) async throws {
        for (key, result) in acknowledged.sorted(by: { $0.key < $1.key }) {
            let replay = await gateway.request(
                "pbba.submitPaymentRequest", SharedStoreTests.submit(key), id: .string("again-\(key)"))
            #expect(
                replay?["result"] == result,
                "\(key) was acknowledged with \(result.jsonText), replayed \(replay?.jsonText ?? "nothing")")
            let token = try #require(result["secureToken"])
            let status = await gateway.request("pbba.getPaymentStatus", ["secureToken": token], id: .string("status-\(key)"))
            #expect(status?["result"]?["status"] == "inProgress", "\(key): \(status?.jsonText ?? "nothing")")
        }
    }

    @Test func postgreSQLRestartedUnderLoadIsRetryableThenServedAgainWithNothingLost() async throws {
        // A cluster of this test's own: stopping the shared one would fail the other tests' calls.
        let cluster = try await PostgresTestCluster.own()
        let url = try await cluster.createDatabase(prefix: "payrpc_restart")
        let gateway = try await SharedDatabase.gateway(url)
        var acknowledged = ["warm": try await Self.warmUp(gateway, key: "warm")]
        var failed: [String] = []

        // Two hundred calls in flight; once ten are answered the server is stopped at once
        // (`-m immediate`), the rest still running or queued: each is answered, with its result
        // or with -32009, never left hanging.
        let load = (0..<200).map { "load-\($0)" }
        Self.submit(load, to: gateway)
        var loadAnswers = await Self.answers(10, from: gateway)
        try await cluster.stop()
        for (key, answer) in await Self.answers(load.count - loadAnswers.count, from: gateway) { loadAnswers[key] = answer }
        for key in load {
            let answer = try #require(loadAnswers[key], "\(key) was not answered: \(gateway.logText)")
            if let result = answer["result"] {
                acknowledged[key] = result
            } else {
                #expect(answer["error"]?["code"] == -32009, "\(key): \(answer.jsonText)")
                failed.append(key)
            }
        }
        #expect(acknowledged.count > 10, "the store was stopped before ten calls were answered")
        // While it is down every durable call is answered -32009, retryable; the gateway lives on.
        let down = (0..<10).map { "down-\($0)" }
        Self.submit(down, to: gateway)
        let downAnswers = await Self.answers(down.count, from: gateway)
        for key in down {
            let error = downAnswers[key]?["error"]
            #expect(error?["code"] == -32009, "\(key): \(downAnswers[key]?.jsonText ?? "no answer")")
            #expect(error?["data"]?["type"] == "storeUnavailable")
            #expect(error?["data"]?["retryable"] == true)
        }
        failed += down
        #expect(await gateway.request("rpc.health", id: "health")?["result"]?["status"] == "SERVING")

        // Back: the same gateway, never restarted, serves new calls at once.
        try await cluster.start()
        let after = (0..<20).map { "after-\($0)" }
        Self.submit(after, to: gateway)
        let afterAnswers = await Self.answers(after.count, from: gateway)
        for key in after {
            let result = afterAnswers[key]?["result"]
            #expect(result != nil, "\(key) after the restart: \(afterAnswers[key]?.jsonText ?? "no answer"): \(gateway.logText)")
            if let result { acknowledged[key] = result }
        }
        // A call that failed runs when repeated with its key (once: one whose commit did go
        // through answers what it stored).
        for key in failed {
            let retry = await gateway.request(
                "pbba.submitPaymentRequest", SharedStoreTests.submit(key), id: .string("retry-\(key)"))
            let result = try #require(retry?["result"], "\(key) retried: \(retry?.jsonText ?? "no answer")")
            acknowledged[key] = result
        }
        try await Self.expectStored(acknowledged, through: gateway)
        #expect(acknowledged.count == 1 + load.count + down.count + after.count)
        gateway.closeInput()
        #expect(await gateway.waitForExit() == 0)
    }

    @Test func sigkillOfOneOfTwoInstancesMidLoadLosesNoAcknowledgedWrite() async throws {
        let url = try await SharedDatabase.migrated()
        let a = try await SharedDatabase.gateway(url), b = try await SharedDatabase.gateway(url)
        var acknowledged = [
            "a-warm": try await Self.warmUp(a, key: "a-warm"), "b-warm": try await Self.warmUp(b, key: "b-warm"),
        ]

        // Load on both; A is killed once it has answered a few of its calls, with the rest in
        // flight (more than it answers in the seconds a loaded machine may take to notice).
        let loadA = (0..<3000).map { "a-\($0)" }, loadB = (0..<40).map { "b-\($0)" }
        Self.submit(loadA, to: a)
        Self.submit(loadB, to: b)
        var fromA = await Self.answers(5, from: a)
        a.signal(SIGKILL)
        // What A wrote before it died was acknowledged as well: read to the end of its output.
        for (key, answer) in await Self.answers(loadA.count, from: a, timeout: 20) { fromA[key] = answer }
        #expect(await a.waitForExit() == SIGKILL)
        #expect(fromA.count >= 5)
        #expect(fromA.count < loadA.count, "A answered all of its calls before it was killed")
        for (key, answer) in fromA {
            let result = try #require(answer["result"], "A answered \(key) with \(answer.jsonText)")
            acknowledged[key] = result
        }

        // The survivor never fails: everything it was given, and more after the kill.
        let moreB = (0..<20).map { "b-after-\($0)" }
        Self.submit(moreB, to: b)
        let fromB = await Self.answers(loadB.count + moreB.count, from: b)
        for key in loadB + moreB {
            let result = try #require(
                fromB[key]?["result"], "B answered \(key) with \(fromB[key]?.jsonText ?? "nothing"): \(b.logText)")
            acknowledged[key] = result
        }

        // Every write either acknowledged is there, read through the survivor.
        try await Self.expectStored(acknowledged, through: b)

        // The calls A took but never answered (the first fifty) can be made again through B with
        // their keys (A's claims went with it): each runs.
        for key in loadA.filter({ fromA[$0] == nil }).prefix(50) {
            let retry = await b.request("pbba.submitPaymentRequest", SharedStoreTests.submit(key), id: .string("retry-\(key)"))
            #expect(retry?["result"] != nil, "\(key) retried through B: \(retry?.jsonText ?? "no answer")")
        }

        // The killed instance starts again on the same store and serves: it reads what B wrote
        // and writes anew.
        let restarted = try await SharedDatabase.gateway(url)
        try await Self.expectStored(["b-0": try #require(acknowledged["b-0"])], through: restarted)
        _ = try await Self.warmUp(restarted, key: "a-restarted")
        restarted.closeInput()
        b.closeInput()
        #expect(await restarted.waitForExit() == 0)
        #expect(await b.waitForExit() == 0)
    }
}
