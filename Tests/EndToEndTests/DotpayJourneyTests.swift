import Foundation
import PayRPCJSON
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The Dotpay SDK against the spawned binary: a payment through a channel and one that completes
/// later on the sandbox clock, a 1Click card pushed to a second connection, the history, and no
/// card number or CVV in the store or the log.
@Suite struct DotpayJourneyTests {
    static let payment: JSONValue = ["merchantID": "10000", "amount": "15.15", "textDescription": "Bilet"]

    @Test func channelsPaymentsCardsAndHistoryOverTCP() async throws {
        let server = try await SpawnedServer(["serve", "--tcp", "127.0.0.1:0", "--log-level", "trace"])
        let address = try #require(await server.listeningAddress())
        let app = try PBBAJourneyTests.Peer(address)
        let other = try PBBAJourneyTests.Peer(address)
        _ = await other.result("dotpay.paymentHistory.registerObserver")

        let list = try #require(await app.result("dotpay.getChannelList", ["paymentInfo": Self.payment, "group": "blik"]))
        let details = try #require(list["paymentDetails"])
        let paid = try #require(await app.result("dotpay.pay", ["paymentDetails": details, "channelId": 73]))
        #expect(paid["status"] == "processing")
        _ = await app.result("sandbox.clock.advance", ["seconds": 600])
        let updated = await app.result("dotpay.updatePaymentSummary", ["paymentId": try #require(paid["paymentId"])])
        #expect(updated?["status"] == "completed")
        #expect(await other.notification("dotpay.paymentHistory.didUpdatePaymentSummary")?["paymentSummary"]?["status"] == "completed")

        let card = await app.result("dotpay.registerPaymentCard", ["cardInfo": [
            "cardNumber": "5555555555554444", "expirationMonth": 12, "expirationYear": 2199, "cvv": "987"]])
        #expect(card?["isDefault"] == .bool(true))
        #expect(await other.notification("dotpay.didRegisterNewCreditCard")?["card"]?["creditCardId"] == card?["creditCardId"])
        let oneClick = await app.result("oneClickPayment", ["paymentInfo": ["merchantID": "10000", "amount": "9.99", "textDescription": "1Click"]])
        #expect(oneClick?["cardId"] == card?["creditCardId"])
        let history = await app.result("dotpay.paymentHistory")
        if case .array(let entries)? = history { #expect(entries.count == 2) } else { Issue.record("no history") }

        server.signal(SIGTERM)
        _ = await server.waitForExit()
        var stored = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: server.dataDirectory.path) {
            stored.append((try? Data(contentsOf: server.dataDirectory.appendingPathComponent(name))) ?? Data())
        }
        let storedText = String(decoding: stored, as: UTF8.self)
        #expect(!storedText.isEmpty && !storedText.contains("5555555555554444") && !storedText.contains("\"987\""))
        #expect(!server.logText.isEmpty && !server.logText.contains("5555555555554444"))
    }
}
