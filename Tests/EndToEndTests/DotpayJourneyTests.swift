import Foundation
import PayRPCJSON
import PayRPCTestSupport
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
        #expect(
            await other.notification("dotpay.paymentHistory.didUpdatePaymentSummary")?["paymentSummary"]?["status"] == "completed"
        )

        let card = await app.result(
            "dotpay.registerPaymentCard",
            [
                "cardInfo": [
                    "cardNumber": "5555555555554444", "expirationMonth": 12, "expirationYear": 2199, "cvv": "987",
                ]
            ])
        #expect(card?["isDefault"] == .bool(true))
        #expect(await other.notification("dotpay.didRegisterNewCreditCard")?["card"]?["creditCardId"] == card?["creditCardId"])
        let oneClick = await app.result(
            "oneClickPayment", ["paymentInfo": ["merchantID": "10000", "amount": "9.99", "textDescription": "1Click"]])
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

    /// The shop's backend (`Tests/DotpayServiceTests/Support/urlc_shop.py`): it checks each URLC
    /// notification's signature with its own PIN.
    final class Shop: Sendable {
        let backend: PythonBackend

        init() async throws {
            let script = SpawnedServer.repositoryRoot.appendingPathComponent("Tests/DotpayServiceTests/Support/urlc_shop.py")
            backend = try await PythonBackend(script: script.path)
        }

        var urlc: String { "http://127.0.0.1:\(backend.port)/shop/urlc" }
    }

    /// The shop is down while a payment and a refund are made: both notifications wait, listed and
    /// reported; the next start of the server sends them, signed, with no call.
    @Test func urlcNotificationsWaitAndGoAtTheNextStart() async throws {
        let pin = "Pin2026-e2e"
        let shop = try await Shop()
        _ = try await shop.backend.exchange("/_control", posting: ["pin": pin, "fail": 1000, "mode": "500"])
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-dotpay-urlc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try await SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        _ = await first.request("sandbox.dotpay.setShopPin", ["pin": .string(pin)])
        let payment: JSONValue = [
            "merchantID": "10000", "amount": "80.00", "textDescription": "Bilet", "control": "order-9",
            "urlc": .string(shop.urlc),
        ]
        let paid = try #require(
            await first.request(
                "dotpay.fastPayment",
                [
                    "paymentInfo": payment, "paymentChannelId": 73,
                    "showingDefaultSummary": true,
                ])?["result"])
        let id = try #require(paid["paymentId"])
        #expect(
            await first.request("sandbox.dotpay.refund", ["paymentId": id, "amount": "30.00"])?["result"]?["status"]
                == "completed")
        #expect(await first.request("sandbox.dotpay.deliverUrlc")?["result"] == ["attempted": 2, "delivered": 0, "waiting": 2])
        let listed = await first.request("sandbox.dotpay.urlcNotifications", ["paymentId": id])?["result"]
        if case .array(let notifications)? = listed {
            #expect(notifications.map { $0["status"] } == ["shopError", "shopError"])
            #expect(notifications.allSatisfy { $0["httpStatus"] == 500 })
        } else {
            Issue.record("no list")
        }
        #expect(
            await first.request("sandbox.failNext", ["method": "dotpay.getCurrencyList", "error": "networkError"])?["error"]
                == nil)
        #expect(await first.request("dotpay.getCurrencyList")?["error"]?["code"] == -33415)
        first.closeInput()
        #expect(await first.waitForExit() == 0)

        _ = try await shop.backend.exchange("/_control", posting: ["fail": 0])
        let second = try await SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        #expect(try await shop.backend.exchange("/_wait?accepted=2") as? [String: Int] == ["accepted": 2])
        let requests = try await shop.backend.exchange("/_requests") as? [[String: Any]] ?? []
        let accepted = requests.filter { $0["failed"] as? Bool == false }
        #expect(accepted.count == 2 && accepted.allSatisfy { $0["signatureValid"] as? Bool == true })
        let types = accepted.compactMap { ($0["fields"] as? [String: String])?["operation_type"] }
        #expect(Set(types) == ["payment", "refund"])
        #expect(await second.request("dotpay.getSettings")?["result"]?["system"] == "production")
        second.closeInput()
        #expect(await second.waitForExit() == 0)
    }
}
