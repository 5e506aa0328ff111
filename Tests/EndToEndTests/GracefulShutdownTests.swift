import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM through the binary while the journal delivers payments the backend keeps dropping and a
/// Dotpay URLC notification is retried: the gateway answers every call it had read, exits 0 within
/// 5 s (its services end their work at the next retry wait), and after a restart every
/// acknowledged entry and the notification reach their backends exactly once. The gateway signalled
/// is the binary users run (``SpawnedServer/shippedBinary``): the 5 s are its promise, and a
/// sanitized build on a loaded machine took 8.
@Suite struct GracefulShutdownTests {
    @Test func sigtermDuringDeliveriesAnswersEveryCallReadAndLosesOrDoublesNothing() async throws {
        let backend = try await JournalJourneyTests.Backend()
        try await backend.post("/_control", ["failEvery": 2, "mode": "drop"])
        let shop = try await DotpayJourneyTests.Shop()
        let pin = "Pin2026-term"
        _ = try await shop.backend.exchange("/_control", posting: ["pin": pin, "fail": 1000, "mode": "drop"])
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-sigterm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let arguments = ["serve", "--stdio", "--journal-backend", backend.url]
        let first = try await SpawnedServer(arguments, dataDirectory: data, binary: SpawnedServer.shippedBinary)
        _ = await first.request("sandbox.dotpay.setShopPin", ["pin": .string(pin)])
        let payment: JSONValue = [
            "merchantID": "10000", "amount": "80.00", "textDescription": "Bilet", "control": "order-term",
            "urlc": .string(shop.urlc),
        ]
        let paid = await first.request(
            "dotpay.fastPayment", ["paymentInfo": payment, "paymentChannelId": 73, "showingDefaultSummary": true])
        #expect(paid?["result"]?["paymentId"] != nil, "\(String(describing: paid))")
        // The shop drops every try: the notification's delivery is among its retries.
        _ = try await shop.backend.exchange("/_requests?atLeast=1")

        // Twelve payments at once; each answers once its delivery was tried, so deliveries are
        // under way (every second POST dropped and retried) when the backend has seen four.
        let count = 12
        for index in 1...count {
            first.send(#"{"jsonrpc":"2.0","id":\#(index),"method":"journal.pay","params":{"type":"cash","amount":"\#(index)"}}"#)
        }
        _ = try await backend.get("/_requests?atLeast=4")
        let signalled = ContinuousClock.now
        first.signal(SIGTERM)
        var answers: [Int: JSONValue] = [:]
        while let message = await first.nextMessage(timeout: 30) {
            if case .number(let id)? = message["id"], let number = Int(id) { answers[number] = message }
        }
        #expect(await first.waitForExit(timeout: 30) == 0)
        let exited = ContinuousClock.now - signalled
        #expect(exited < .seconds(5), "exited \(exited) after SIGTERM")
        // Every answer is a saved entry (a call read is answered, never dropped half-done).
        let acknowledged = answers.values.compactMap { $0["result"]?["entry"] }
        #expect(!acknowledged.isEmpty && acknowledged.count == answers.count, "\(answers)")

        try await backend.post("/_control", ["failEvery": 0])
        _ = try await shop.backend.exchange("/_control", posting: ["fail": 0])
        let second = try await SpawnedServer(arguments, dataDirectory: data)
        #expect(try await shop.backend.exchange("/_wait?accepted=1") as? [String: Int] == ["accepted": 1])
        let entries = try #require(await second.syncedJournalEntries())
        // The entries are exactly the calls answered; each cash payment's only POST (/payments/)
        // was accepted once.
        #expect(
            Set(entries.compactMap { $0["entryId"]?.stringValue }) == Set(acknowledged.compactMap { $0["entryId"]?.stringValue }))
        #expect(entries.allSatisfy { $0["delivery"]?["status"] == "delivered" })
        let requests = try await backend.get("/_requests") as? [[String: Any]] ?? []
        let accepted = requests.filter { $0["path"] as? String == "/payments/" && $0["failed"] as? Bool == false }
        let keys = accepted.compactMap { $0["key"] as? String }
        #expect(keys.count == entries.count && Set(keys).count == keys.count, "\(keys)")
        let tries = try await shop.backend.exchange("/_requests") as? [[String: Any]] ?? []
        #expect(tries.filter { $0["failed"] as? Bool == false }.count == 1)
        second.closeInput()
        #expect(await second.waitForExit() == 0)
    }
}
