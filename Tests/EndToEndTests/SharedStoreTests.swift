import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing

/// Two spawned gateways on one PostgreSQL database (`serve --store postgresql://…`), on the
/// throw-away cluster the tests start: what one writes the other reads, one idempotency key raced
/// through both runs once, and the schema is made ahead by `payrpc data migrate --store`.
@Suite struct SharedStoreTests {
    static func submit(_ key: String) -> JSONValue {
        ["amount": "7.00", "currency": "GBP", "reference": "shared order", "_meta": ["idempotencyKey": .string(key)]]
    }

    @Test func stateWrittenThroughOneInstanceIsReadThroughTheOther() async throws {
        let url = try await SharedDatabase.migrated()
        let a = try await SharedDatabase.gateway(url), b = try await SharedDatabase.gateway(url)
        // The first call connects and prepares; on a machine loaded by the whole suite it once
        // took longer than a request's 15 s, so it may take a minute.
        a.send(
            JSONValue.object([
                .init("jsonrpc", "2.0"), .init("id", "1"), .init("method", "pbba.submitPaymentRequest"),
                .init("params", Self.submit("order-1")),
            ]).jsonText)
        let answer = await a.nextMessage(timeout: 60)
        let submitted = try #require(answer?["result"], "A answered \(answer?.jsonText ?? "nothing"): \(a.logText)")
        let token = try #require(submitted["secureToken"])
        // The payment request A stored is known to B.
        #expect(await b.request("pbba.getPaymentStatus", ["secureToken": token], id: "2")?["result"]?["status"] == "inProgress")
        // A token no instance issued is not.
        #expect(await b.request("pbba.getPaymentStatus", ["secureToken": "not-issued-anywhere"], id: "3")?["error"] != nil)
        // The idempotency key A used answers A's answer through B, and refuses other params.
        #expect(await b.request("pbba.submitPaymentRequest", Self.submit("order-1"), id: "4")?["result"] == submitted)
        let other: JSONValue = [
            "amount": "8.00", "currency": "GBP", "reference": "shared order", "_meta": ["idempotencyKey": "order-1"],
        ]
        #expect(await b.request("pbba.submitPaymentRequest", other, id: "5")?["error"]?["code"] == -32005)
        // Seeded ids drawn on both instances never repeat.
        let fromB = try #require(
            await b.request("pbba.submitPaymentRequest", Self.submit("order-2"), id: "6")?["result"]?["secureToken"])
        #expect(fromB != token)
        a.closeInput()
        b.closeInput()
        #expect(await a.waitForExit() == 0)
        #expect(await b.waitForExit() == 0)
        // What both wrote is in the database, as `data export --store` shows it.
        let export = try await ChildRun.run(
            SpawnedServer.binary, ["data", "export", "--profile", "pbba-merchant-backend", "--store", url],
            environment: ["PAYRPC_STORE_KEY": SharedDatabase.key])
        #expect(export.status == 0)
        #expect(export.output.contains("pbba.requests"))
    }

    @Test func oneIdempotencyKeyRacedThroughTwoInstancesRunsOnce() async throws {
        let url = try await SharedDatabase.migrated()
        let a = try await SharedDatabase.gateway(url), b = try await SharedDatabase.gateway(url)
        for round in 0..<5 {
            let key = "race-\(round)"
            let line = { (id: String) in
                #"{"jsonrpc":"2.0","id":"\#(id)","method":"pbba.submitPaymentRequest","params":{"amount":"7.00","currency":"GBP","reference":"race","_meta":{"idempotencyKey":"\#(key)"}}}"#
            }
            a.send(line("a\(round)"))
            b.send(line("b\(round)"))
            let lineA = await a.nextLine(), lineB = await b.nextLine()
            let fromA = try #require(
                lineA.flatMap { try? JSONValue(parsing: $0) }, "A answered \(lineA ?? "nothing"): \(a.logText)")
            let fromB = try #require(
                lineB.flatMap { try? JSONValue(parsing: $0) }, "B answered \(lineB ?? "nothing"): \(b.logText)")
            let results = [fromA["result"], fromB["result"]].compactMap { $0 }
            // Exactly as on one instance: both answers the one run's, or one of them "in use".
            #expect(!results.isEmpty)
            if results.count == 2 {
                #expect(results[0] == results[1])
            } else {
                let refused = fromA["error"] ?? fromB["error"]
                #expect(refused?["code"] == -32005)
            }
        }
        // Every key ran once: a later call through either instance replays it.
        let again: JSONValue = ["amount": "7.00", "currency": "GBP", "reference": "race", "_meta": ["idempotencyKey": "race-0"]]
        let first = await a.request("pbba.submitPaymentRequest", again, id: "x")?["result"]
        #expect(first != nil)
        #expect(await b.request("pbba.submitPaymentRequest", again, id: "y")?["result"] == first)
        a.closeInput()
        b.closeInput()
        #expect(await a.waitForExit() == 0)
        #expect(await b.waitForExit() == 0)
    }

    @Test func wrongPINsRacedThroughTwoInstancesAreAllCounted() async throws {
        let url = try await SharedDatabase.migrated()
        let a = try await SharedDatabase.gateway(url), b = try await SharedDatabase.gateway(url)
        let wrong = #"{"jsonrpc":"2.0","id":"w","method":"tatra.authorize","params":{"pincode":"9999"}}"#
        // Two wrong PINs at once, one through each instance: both count (the limit is 3 in a row).
        a.send(wrong)
        b.send(wrong)
        let first = try #require(await a.nextMessage()), second = try #require(await b.nextMessage())
        for answer in [first, second] {
            #expect(answer["error"]?["data"]?["type"] == "wrongPin")
            #expect(answer["error"]?["data"]?["applicationBlocked"] == false)
        }
        // So the third, through either, blocks the application for both.
        let third = await a.request("tatra.authorize", ["pincode": "9999"], id: "3")
        #expect(third?["error"]?["data"]?["applicationBlocked"] == true)
        let right = await b.request("tatra.authorize", ["pincode": "1234"], id: "4")
        #expect(right?["error"]?["data"]?["applicationBlocked"] == true)
        a.closeInput()
        b.closeInput()
        #expect(await a.waitForExit() == 0)
        #expect(await b.waitForExit() == 0)
    }

    /// A profile's first 1Click card becomes its default: two first cards registered at once,
    /// one through each instance, leave exactly one default (and both cards), as on one instance.
    @Test func firstCardsRacedThroughTwoInstancesLeaveOneDefault() async throws {
        let url = try await SharedDatabase.migrated()
        let a = try await SharedDatabase.gateway(url), b = try await SharedDatabase.gateway(url)
        let register = { (id: String, number: String) in
            #"{"jsonrpc":"2.0","id":"\#(id)","method":"dotpay.registerPaymentCard","params":{"cardInfo":{"cardNumber":"\#(number)","expirationMonth":12,"expirationYear":2199,"cvv":"987"}}}"#
        }
        // The next answer, past the card notifications each instance pushes to the profile's connections.
        func reply(_ gateway: SpawnedServer) async -> JSONValue? {
            while let message = await gateway.nextMessage() {
                if message["id"] != nil { return message }
            }
            return nil
        }
        for round in 0..<5 {
            let hello = #"{"jsonrpc":"2.0","id":"h","method":"rpc.hello","params":{"profile":"cards-\#(round)"}}"#
            for gateway in [a, b] {
                gateway.send(hello)
                #expect(await reply(gateway)?["id"] == "h")
            }
            a.send(register("a\(round)", "5555555555554444"))
            b.send(register("b\(round)", "4111111111111111"))
            let fromA = try #require(await reply(a)), fromB = try #require(await reply(b))
            let defaults = [fromA, fromB].compactMap { $0["result"]?["isDefault"] }
            #expect(defaults.count == 2, "answers: \(fromA.jsonText) \(fromB.jsonText)")
            #expect(defaults.filter { $0 == .bool(true) }.count == 1)
            a.send(#"{"jsonrpc":"2.0","id":"l","method":"dotpay.paymentCards"}"#)
            guard case .array(let cards)? = await reply(a)?["result"] else {
                Issue.record("no card list")
                continue
            }
            #expect(cards.count == 2)
            #expect(cards.filter { $0["isDefault"] == .bool(true) }.count == 1)
        }
        a.closeInput()
        b.closeInput()
        #expect(await a.waitForExit() == 0)
        #expect(await b.waitForExit() == 0)
    }

    @Test func aWrongStoreKeyIsAStartUpError() async throws {
        let url = try await SharedDatabase.migrated()
        let wrong = try await SharedDatabase.gateway(url, key: String(repeating: "0badc0de", count: 8))
        #expect(await wrong.waitForLog(containing: "store key does not open"))
        #expect(await wrong.waitForExit() == 2)
        let missing = try await SharedDatabase.gateway(url, key: nil)
        #expect(await missing.waitForLog(containing: "PAYRPC_STORE_KEY"))
        #expect(await missing.waitForExit() == 64)
    }

    /// libpq is loaded when the store first connects, not linked: a library that is missing, or
    /// is not libpq, is a start-up error that says so (no server needed: it fails before connecting).
    @Test(arguments: [
        ("/nonexistent/libpq.so.5", "libpq could not be loaded (PAYRPC_LIBPQ=/nonexistent/libpq.so.5: "),
        ("libsqlite3.so.0", "the loaded libpq has no PQbackendPID: the PostgreSQL store needs libpq 14 or later"),
    ])
    func aLibPQThatCannotBeLoadedIsAStartUpError(library: String, message: String) async throws {
        let gateway = try await SpawnedServer(
            ["serve", "--stdio", "--store", "postgresql://127.0.0.1:1/payrpc"],
            environment: ["PAYRPC_STORE_KEY": SharedDatabase.key, "PAYRPC_LIBPQ": library])
        #expect(await gateway.waitForLog(containing: message))
        #expect(await gateway.waitForExit() == 2)
    }
}
