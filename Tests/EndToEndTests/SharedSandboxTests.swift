import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The sandbox controls across gateways that share one PostgreSQL database (issue 30.2): a failure
/// armed through one fires on whichever serves the next call, exactly once, even raced and after
/// the arming gateway died; seeded ids are those one gateway draws and never repeat; the clock and
/// the seed set through one are what the others read. Every gateway serves the profile `default`
/// over stdio.
///
/// Serialized: each test starts two or three gateways (as ``SharedJourneyTests``).
@Suite(.serialized) struct SharedSandboxTests {
    /// The failure the tests arm: Tatra's setup fails with its network error.
    static let failure: JSONValue = ["method": "tatra.fetchSetupData", "error": "network"]

    /// A PBBA payment request, with an idempotency key when given.
    static func submit(_ key: String? = nil) -> JSONValue {
        var members: [JSONValue.Member] = [.init("amount", "4.00"), .init("currency", "GBP"), .init("reference", "seeded")]
        if let key { members.append(.init("_meta", ["idempotencyKey": .string(key)])) }
        return .object(members)
    }

    /// Sends `method` to `gateway` once per id, without waiting for any answer.
    static func send(_ gateway: SpawnedServer, _ method: String, _ params: JSONValue? = nil, ids: [String]) {
        for id in ids {
            var members: [JSONValue.Member] = [
                .init("jsonrpc", "2.0"), .init("id", .string(id)), .init("method", .string(method)),
            ]
            if let params { members.append(.init("params", params)) }
            gateway.send(JSONValue.object(members).jsonText)
        }
    }

    /// The answers of `gateway` to the calls `ids`, by id (fewer when it stops answering).
    static func answers(_ gateway: SpawnedServer, ids: [String]) async -> [String: JSONValue] {
        var answers: [String: JSONValue] = [:]
        while answers.count < ids.count, let message = await gateway.nextMessage(timeout: 90) {
            if let id = message["id"]?.stringValue, ids.contains(id) { answers[id] = message }
        }
        return answers
    }

    /// Closes every gateway's input and expects a clean exit.
    static func finish(_ gateways: [SpawnedServer]) async {
        for gateway in gateways { gateway.closeInput() }
        for gateway in gateways { #expect(await gateway.waitForExit() == 0, "\(gateway.logText)") }
    }

    /// Arms the failure through `gateway` and returns the error code it will be answered with.
    static func arm(_ gateway: SpawnedServer, count: Int = 1) async throws -> JSONValue {
        var params = failure
        if case .object(var members) = params {
            members.append(.init("count", .int(count)))
            params = .object(members)
        }
        let armed = try #require(await gateway.request("sandbox.failNext", params, id: "arm")?["result"])
        #expect(armed["armed"] == .int(count))
        return try #require(armed["code"])
    }

    @Test func aFailureArmedThroughOneGatewayFailsTheNextCallOnAnotherOnce() async throws {
        let (_, gateways) = try await SharedDatabase.gateways(2)
        let a = gateways[0], b = gateways[1]
        let code = try await Self.arm(a)
        #expect(await b.request("tatra.fetchSetupData", nil, id: "b1")?["error"]?["code"] == code)
        // Taken: the next call succeeds on either gateway.
        #expect(await a.request("tatra.fetchSetupData", nil, id: "a1")?["result"] != nil)
        #expect(await b.request("tatra.fetchSetupData", nil, id: "b2")?["result"] != nil)
        #expect(await a.request("sandbox.failNext", Self.failure, id: "a2")?["result"]?["armed"] == 1)
        #expect(await a.request("tatra.fetchSetupData", nil, id: "a3")?["error"]?["code"] == code)
        #expect(await b.request("tatra.fetchSetupData", nil, id: "b3")?["result"] != nil)
        await Self.finish(gateways)
    }

    @Test func twoGatewaysRacingForOneArmedFailureFailOneCall() async throws {
        // Armed through the first; raced through the two others.
        let (_, gateways) = try await SharedDatabase.gateways(3)
        let code = try await Self.arm(gateways[0])
        let racers = Array(gateways.dropFirst())
        let ids = racers.indices.map { racer in (0..<8).map { "r\(racer)-\($0)" } }
        for index in racers.indices { Self.send(racers[index], "tatra.fetchSetupData", ids: ids[index]) }
        var failed = 0, succeeded = 0
        for index in racers.indices {
            let answers = await Self.answers(racers[index], ids: ids[index])
            #expect(answers.count == ids[index].count)
            for answer in answers.values {
                if answer["error"]?["code"] == code { failed += 1 } else if answer["result"] != nil { succeeded += 1 }
            }
        }
        #expect(failed == 1)
        #expect(succeeded == 15)
        await Self.finish(gateways)
    }

    /// A Northstar call that fails before it stores anything (the card client is not configured):
    /// its error carries a `debug_id` drawn from the profile's seeded stream and checked against
    /// nothing stored, so two gateways drawing one value would both answer it.
    static let drawing: JSONValue = ["authorizationID": "5O190127TN364715T"]

    /// The debug ids of `count` such calls, the n-th through `gateways[n % count]`.
    static func debugIDs(_ count: Int, through gateways: [SpawnedServer], from first: Int = 0) async -> [JSONValue?] {
        var ids: [JSONValue?] = []
        for index in 0..<count {
            let gateway = gateways[index % gateways.count]
            let answer = await gateway.request("northstar.captureAuthorization", Self.drawing, id: .string("d\(first + index)"))
            ids.append(answer?["error"]?["data"]?["debug_id"])
        }
        return ids
    }

    @Test func seededIdsAlternatingBetweenGatewaysAreOneGatewaysAndNeverRepeat() async throws {
        let (_, alone) = try await SharedDatabase.gateways(1, ["--stdio", "--seed", "42"])
        let expected = await Self.debugIDs(6, through: alone)
        await Self.finish(alone)
        #expect(Set(expected.compactMap { $0 }).count == 6)

        let (_, gateways) = try await SharedDatabase.gateways(2, ["--stdio", "--seed", "42"])
        #expect(await Self.debugIDs(6, through: gateways) == expected)
        // Drawn concurrently through both: twenty more, all different, none of the first six.
        let ids = (0..<2).map { gateway in (0..<10).map { "c\(gateway)-\($0)" } }
        for index in 0..<2 { Self.send(gateways[index], "northstar.captureAuthorization", Self.drawing, ids: ids[index]) }
        var drawn: [JSONValue] = []
        for index in 0..<2 {
            let answers = await Self.answers(gateways[index], ids: ids[index])
            drawn += answers.values.compactMap { $0["error"]?["data"]?["debug_id"] }
        }
        #expect(drawn.count == 20)
        #expect(Set(drawn + expected.compactMap { $0 }).count == 26)
        await Self.finish(gateways)
    }

    @Test func aClockMovedThroughOneGatewayIsTheOthersTime() async throws {
        let (_, gateways) = try await SharedDatabase.gateways(2)
        let a = gateways[0], b = gateways[1]
        // Idempotency retention, a rule on the sandbox clock: a key used through A replays through
        // B, and is forgotten through A once B moved the clock a day and a second on.
        let first = try #require(await a.request("pbba.submitPaymentRequest", Self.submit("kept"), id: "a1")?["result"])
        #expect(await b.request("pbba.submitPaymentRequest", Self.submit("kept"), id: "b1")?["result"] == first)
        #expect(await b.request("sandbox.clock.advance", ["seconds": 86401], id: "b2")?["result"]?["offsetSeconds"] == 86401)
        #expect(await a.request("sandbox.clock.get", nil, id: "a2")?["result"]?["offsetSeconds"] == 86401)
        let later = try #require(await a.request("pbba.submitPaymentRequest", Self.submit("kept"), id: "a3")?["result"])
        #expect(later["secureToken"] != first["secureToken"])
        // Set through A, read through B.
        #expect(await a.request("sandbox.clock.set", ["time": "2099-01-01T00:00:00Z"], id: "a4")?["result"] != nil)
        let time = await b.request("sandbox.clock.get", nil, id: "b3")?["result"]?["time"]?.stringValue
        #expect(time?.hasPrefix("2099-01-01T00:0") == true, "B reads \(time ?? "nothing")")
        await Self.finish(gateways)
    }

    @Test func aSeedSetThroughOneGatewayIsTheOthersSeed() async throws {
        let (_, alone) = try await SharedDatabase.gateways(1)
        #expect(await alone[0].request("rpc.hello", ["seed": 99], id: "h")?["result"]?["seed"] == 99)
        let expected = await Self.debugIDs(4, through: alone)
        #expect(Set(expected.compactMap { $0 }).count == 4)
        await Self.finish(alone)

        let (_, gateways) = try await SharedDatabase.gateways(2)
        #expect(await gateways[0].request("rpc.hello", ["seed": 99], id: "h")?["result"]?["seed"] == 99)
        #expect(await Self.debugIDs(4, through: [gateways[1], gateways[0]]) == expected)
        // Reseeded through B: A's streams start again from the new seed's beginning.
        #expect(await gateways[1].request("rpc.hello", ["seed": 99], id: "h2")?["result"]?["seed"] == 99)
        #expect(await Self.debugIDs(1, through: [gateways[0]], from: 10) == [expected[0]])
        await Self.finish(gateways)
    }

    /// `rpc.hello` answers with the seed in force across gateways: set through A, B reports it
    /// (B never served the profile before, so only the store can tell it).
    @Test func rpcHelloReportsTheSeedSetThroughAnotherGateway() async throws {
        let (_, gateways) = try await SharedDatabase.gateways(2)
        let a = gateways[0], b = gateways[1]
        #expect(await b.request("rpc.hello", [:], id: "b0")?["result"]?["seed"] == nil)
        #expect(await a.request("rpc.hello", ["seed": 7], id: "a1")?["result"]?["seed"] == 7)
        #expect(await b.request("rpc.hello", [:], id: "b1")?["result"]?["seed"] == 7)
        #expect(await b.request("rpc.hello", ["seed": 8], id: "b2")?["result"]?["seed"] == 8)
        #expect(await a.request("rpc.hello", ["client": "again"], id: "a2")?["result"]?["seed"] == 8)
        await Self.finish(gateways)
    }

    /// A seed set through one gateway while another draws the profile's seeded values (each draw
    /// saved under the profile's lock) is kept: saved under that lock too, no draw's save writes
    /// the old seed back over it.
    @Test func aSeedSetWhileAnotherGatewayDrawsIsKept() async throws {
        let (_, gateways) = try await SharedDatabase.gateways(2)
        let a = gateways[0], b = gateways[1]
        #expect(await a.request("rpc.hello", ["seed": 1], id: "a0")?["result"]?["seed"] == 1)
        let ids = (0..<24).map { "d\($0)" }
        Self.send(a, "northstar.captureAuthorization", Self.drawing, ids: ids)
        #expect(await b.request("rpc.hello", ["seed": 2], id: "b0")?["result"]?["seed"] == 2)
        let drawn = await Self.answers(a, ids: ids)
        #expect(drawn.count == ids.count)
        #expect(await a.request("rpc.hello", [:], id: "a1")?["result"]?["seed"] == 2)
        #expect(await b.request("rpc.hello", [:], id: "b1")?["result"]?["seed"] == 2)
        // The sequence after the race is seed 2's from its beginning or later, never seed 1's.
        let (_, alone) = try await SharedDatabase.gateways(1)
        #expect(await alone[0].request("rpc.hello", ["seed": 1], id: "s1")?["result"]?["seed"] == 1)
        let seedOnes = Set(await Self.debugIDs(40, through: alone).compactMap { $0 })
        await Self.finish(alone)
        let after = await Self.debugIDs(2, through: [b, a], from: 100).compactMap { $0 }
        #expect(after.count == 2)
        #expect(seedOnes.isDisjoint(with: after), "drawn from seed 1 after seed 2 was set: \(after)")
        await Self.finish(gateways)
    }

    /// A draw by an inline method that stores nothing (`sandbox.journal.completePayment`'s payment
    /// number, from the seeded stream): raced through two gateways, every number is different.
    @Test func seededDrawsOfInlineMethodsRacedThroughTwoGatewaysNeverRepeat() async throws {
        let (_, gateways) = try await SharedDatabase.gateways(2, ["--stdio", "--seed", "42"])
        let handoff: JSONValue = [
            "url":
                "linkPayment://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10000&Startup_Mode=1#opener://"
        ]
        let ids = (0..<2).map { gateway in (0..<10).map { "p\(gateway)-\($0)" } }
        for index in 0..<2 { Self.send(gateways[index], "sandbox.journal.completePayment", handoff, ids: ids[index]) }
        var numbers: [String] = []
        for index in 0..<2 {
            let answers = await Self.answers(gateways[index], ids: ids[index])
            for answer in answers.values {
                let url = answer["result"]?["callbackURL"]?.stringValue ?? ""
                let number = URLComponents(string: url)?.queryItems?.first { $0.name == "Payment_Number" }?.value
                if let number { numbers.append(number) }
            }
        }
        #expect(numbers.count == 20)
        #expect(Set(numbers).count == 20, "\(numbers.sorted())")
        await Self.finish(gateways)
    }

    /// A Masterpass payment of a seeded profile waits for the app's answer holding the profile's
    /// sandbox lock: the answer, which draws nothing, does not wait for that lock in turn.
    @Test func aSeededMasterpassPaymentIsAnsweredWhileItHoldsTheProfilesLock() async throws {
        let (_, gateways) = try await SharedDatabase.gateways(2, ["--stdio", "--seed", "42"])
        let gateway = gateways[1]
        let list = try #require(
            await gateway.request("dotpay.getChannelList", ["paymentInfo": DotpayJourneyTests.payment], id: "list")?["result"])
        let details = try #require(list["paymentDetails"])
        Self.send(
            gateway, "dotpay.pay", ["paymentDetails": details, "channelId": 71, "masterpassAuthorization": true], ids: ["pay"])
        var question: JSONValue?
        while question == nil, let message = await gateway.nextMessage(timeout: 90) {
            if message["method"] == "dotpay.masterpassPaymentShouldCreateAuthorizationOn" { question = message["params"] }
        }
        let requestID = try #require(question?["requestId"])
        Self.send(
            gateway, "dotpay.masterpass.didCreateAuthorization", ["requestId": requestID, "successful": true], ids: ["yes"])
        let answers = await Self.answers(gateway, ids: ["pay", "yes"])
        #expect(answers["yes"]?["error"] == nil)
        #expect(answers["pay"]?["result"]?["paymentId"] != nil, "\(answers)")
        await Self.finish(gateways)
    }

    @Test func aFailureArmedThroughAGatewayThatWasKilledFiresOnAnother() async throws {
        let (_, gateways) = try await SharedDatabase.gateways(2)
        let a = gateways[0], b = gateways[1]
        // B has served a call before the failure is armed: what it knows of the profile is older.
        #expect(await b.request("tatra.fetchSetupData", nil, id: "b0")?["result"] != nil)
        let code = try await Self.arm(a)
        a.signal(SIGKILL)
        #expect(await a.waitForExit() != 0)
        #expect(await b.request("tatra.fetchSetupData", nil, id: "b1")?["error"]?["code"] == code)
        #expect(await b.request("tatra.fetchSetupData", nil, id: "b2")?["result"] != nil)
        b.closeInput()
        #expect(await b.waitForExit() == 0)
    }
}
