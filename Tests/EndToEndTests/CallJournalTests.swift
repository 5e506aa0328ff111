import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing

/// The call journal through the binary: what an app's integration test asks of it (did my app
/// send this, once, in this order, with a PIN?), a wait a delivery satisfies, and no secret in
/// any entry or log line.
@Suite struct CallJournalTests {
    static let jana: JSONValue = ["fullName": "Jana Nováková", "phones": ["+421900123456"]]
    static let card = "5555555555554444"

    /// The Tatra flow, a Dotpay card and the journal's card flow to a real backend; then the
    /// verifications, the wait the delivery's POST satisfied, and no PIN, card number or CVV anywhere.
    @Test func aTesterAsksWhatTheAppSent() async throws {
        let backend = try await JournalJourneyTests.Backend()
        let server = try await SpawnedServer(
            ["serve", "--stdio", "--tcp", "127.0.0.1:0", "--journal-backend", backend.url, "--log-level", "debug"])
        let address = try #require(await server.listeningAddress())
        // A second connection waits for the journal's POST before anything is sent.
        let waiter = try SocketClient(tcp: address, timeout: 30)
        try waiter.send(
            #"{"jsonrpc":"2.0","id":"w","method":"sandbox.calls.wait","params":{"match":{"kind":"http","url":"/journals/$"},"timeoutMs":120000}}"#
                + "\n")
        let none = await server.request("sandbox.calls.count", ["match": ["kind": "http"]])
        #expect(none?["result"]?["count"] == 0)

        _ = await server.request("tatra.onFlowStart", id: "t1")
        _ = await server.request(
            "tatra.executePayment", ["amount": "12.50", "contact": Self.jana, "reference": "Invoice 7"], id: "t2")
        _ = await server.request("authorizePayment", ["pincode": "0000"], id: "t3")
        _ = await server.request("tatra.authorizePayment", ["pincode": "1234"], id: "t4")
        let registered = await server.request(
            "dotpay.registerPaymentCard",
            ["cardInfo": ["cardNumber": .string(Self.card), "expirationMonth": 12, "expirationYear": 2199, "cvv": "987"]],
            id: "d1")
        #expect(registered?["error"] == nil)
        let url = try #require(
            await server.request("journal.pay", ["type": "creditCard", "amount": "10000"], id: "j1")?["result"]?["url"])
        let callback = try #require(
            await server.request("sandbox.journal.completePayment", ["url": url], id: "j2")?["result"]?["callbackURL"])
        #expect(await server.request("journal.handleCallback", ["url": callback], id: "j3")?["error"] == nil)

        // The wait began before the card flow: the POST of /journals/ answered it.
        // (The card's notification reaches this connection of the profile too.)
        var waited = JSONValue.null
        while let line = try waiter.readLine(), let message = try? JSONValue(parsing: line) {
            if message["id"] == "w" {
                waited = message
                break
            }
        }
        let post = try #require(waited["result"]?["entries"]?.value(at: "/0"), "\(waited)")
        #expect(post["method"] == "POST")
        #expect(post["http"]?["status"] == 200)
        #expect(post["http"]?["url"]?.stringValue?.hasSuffix("/journals/") == true)
        #expect(post["causedBy"] != nil)

        // In order, others between: executePayment, then authorizePayment with a PIN.
        let sequence = await server.request(
            "sandbox.calls.verify",
            [
                "sequence": [
                    ["method": "tatra.executePayment", "params": [["pointer": "/amount", "equals": "12.50"]]],
                    ["method": "tatra.authorizePayment", "params": [["pointer": "/pincode", "present": true]], "failed": false],
                ]
            ], id: "v1")
        #expect(sequence?["result"]?["matched"] == 2)
        // The alias is the same method: both tries of the PIN counted.
        let count = await server.request("sandbox.calls.count", ["match": ["method": "tatra.authorizePayment"]], id: "v2")
        #expect(count?["result"]?["count"] == 2)
        let once = await server.request(
            "sandbox.calls.verify", ["match": ["method": "tatra.executePayment"], "times": 1], id: "v3")
        #expect(once?["result"]?["matched"] == 1)

        // A verification that fails names the pointer that differed.
        let failed = try #require(
            await server.request(
                "sandbox.calls.verify",
                ["match": ["method": "tatra.executePayment", "params": [["pointer": "/amount", "equals": "99.00"]]]],
                id: "v4")?["error"])
        #expect(failed["code"] == -32010)
        #expect(failed["message"]?.stringValue?.contains("/params/amount") == true)
        #expect(failed["data"]?["matched"] == 0)
        #expect(failed["data"]?.value(at: "/nearestMisses/0/differences/0/pointer") == "/params/amount")
        #expect(failed["data"]?.value(at: "/nearestMisses/0/differences/0/actual") == "12.50")

        // A notification is linked to the call whose handling sent it, on each connection it reached.
        let registering = try #require(
            await server.request("sandbox.calls.find", ["match": ["method": "dotpay.registerPaymentCard"]], id: "f0")?[
                "result"]?.value(at: "/entries/0/id"))
        let pushes = try #require(
            await server.request(
                "sandbox.calls.find", ["match": ["method": "dotpay.didRegisterNewCreditCard", "kind": "push"]], id: "f2")?[
                    "result"]?["entries"])
        #expect(pushes.value(at: "/0/causedBy") == registering)
        #expect(pushes.value(at: "/1/causedBy") == registering)
        #expect(pushes.value(at: "/0/connection") != pushes.value(at: "/1/connection"))

        // No secret in any entry: the PINs, the card's number and CVV are masked.
        let listed = try #require(await server.request("sandbox.calls.list", ["limit": 1000], id: "l1")?["result"])
        let text = listed.jsonText
        for secret in ["\"1234\"", "\"0000\"", Self.card, "\"987\""] {
            #expect(!text.contains(secret), "\(secret) in the journal")
        }
        #expect(text.contains("4444"), "a card number keeps its last four")
        let authorize = try #require(
            await server.request("sandbox.calls.find", ["match": ["method": "tatra.authorizePayment"]], id: "f1")?["result"]?[
                "entries"])
        #expect(authorize.value(at: "/0/calledAs") == "authorizePayment")
        #expect(authorize.value(at: "/0/params/pincode")?.stringValue?.contains("0000") == false)

        // Nor in what `payrpc calls --json` prints.
        let printed = try await ChildRun.run(
            SpawnedServer.binary, ["calls", "--tcp", address, "--json", "--timeout", "600"], timeout: 700)
        #expect(printed.status == 0, "\(printed.errors)")
        #expect(printed.output.contains("tatra.authorizePayment"))
        for secret in ["\"1234\"", "\"0000\"", Self.card, "\"987\""] {
            #expect(!printed.output.contains(secret), "\(secret) in payrpc calls --json")
        }

        server.closeInput()
        #expect(await server.waitForExit() == 0)
        for secret in ["1234\"", Self.card, "\"987\""] {
            #expect(!server.logText.contains(secret), "\(secret) in the log")
        }
    }

    /// A repeat with the same idempotency key is journalled as a replay, with the stored answer.
    @Test func aReplayedAnswerIsMarked() async throws {
        let server = try await SpawnedServer(["serve", "--stdio", "--ephemeral"])
        let params: JSONValue = [
            "amount": "4.00", "currency": "GBP", "reference": "replayed", "_meta": ["idempotencyKey": "order-7"],
        ]
        let first = await server.request("pbba.submitPaymentRequest", params, id: "a")?["result"]
        #expect(first != nil)
        #expect(await server.request("pbba.submitPaymentRequest", params, id: "b")?["result"] == first)
        let found = try #require(
            await server.request("sandbox.calls.find", ["match": ["method": "pbba.submitPaymentRequest"]], id: "f")?["result"]?[
                "entries"])
        #expect(found.value(at: "/0/replayed") == nil)
        #expect(found.value(at: "/1/replayed") == true)
        // The stored answer, as the first call's (its secure token masked in both).
        #expect(found.value(at: "/1/result/brn") == first?["brn"])
        #expect(found.value(at: "/1/result") == found.value(at: "/0/result"))
        #expect(found.value(at: "/1/result/secureToken") == "***")
        #expect(found.value(at: "/1/params/_meta/idempotencyKey") == "order-7")
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    /// A sandbox clock set a thousand years ahead between a chunk's anchor and a call that runs as
    /// a task: the call is journalled at its own time (this once trapped on an overflow).
    @Test func aClockFarAheadIsJournalledAtItsTime() async throws {
        let server = try await SpawnedServer(["serve", "--stdio", "--ephemeral"])
        #expect(await server.request("rpc.health", id: "h")?["result"] != nil)
        #expect(await server.request("sandbox.clock.set", ["time": "3068-01-01T00:00:00Z"], id: "c")?["result"] != nil)
        #expect(await server.request("sandbox.delay", ["ms": 1], id: "d")?["result"] == 1)
        let found = await server.request("sandbox.calls.find", ["match": ["method": "sandbox.delay"]], id: "f")
        #expect(
            found?.value(at: "/result/entries/0/at")?.stringValue?.hasPrefix("3068-01-01T00:00:0") == true,
            "\(String(describing: found))")
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    /// A bad match is invalid params naming the pointer: an unknown method, a malformed pointer, a
    /// negative count, a condition with two tests.
    @Test(arguments: [
        (#"{"match":{"method":"tatra.nope"}}"#, "/match/method"),
        (#"{"match":{"params":[{"pointer":"pin","present":true}]}}"#, "/match/params/0/pointer"),
        (#"{"match":{"method":"rpc.health"},"times":-1}"#, "/times"),
        (#"{"match":{"params":[{"pointer":"/pin","present":true,"absent":true}]}}"#, "/match/params/0"),
        (#"{"match":{"url":"("}}"#, "/match/url"),
        (#"{"sequence":[{"method":"rpc.health"},{"method":"rpc.nope"}]}"#, "/sequence/1/method"),
    ])
    func aBadMatchIsInvalidParamsNamingThePointer(params: String, pointer: String) async throws {
        let server = try await SpawnedServer(["serve", "--stdio", "--ephemeral"])
        server.send(#"{"jsonrpc":"2.0","id":1,"method":"sandbox.calls.verify","params":"# + params + "}")
        let answer = try #require(await server.nextMessage())
        #expect(answer["error"]?["code"] == -32602)
        #expect(answer["error"]?["data"]?.value(at: "/violations/0/pointer")?.stringValue == pointer)
        server.closeInput()
        _ = await server.waitForExit()
    }
}
