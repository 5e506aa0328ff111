import DotpayService
import Foundation
import PayRPCCore
import PayRPCJSON
import Testing
import PayRPCTestSupport

/// The Dotpay SDK's settings, channels, payments, 1Click cards and history on the sandbox.
@Suite("dotpay")
struct DotpayTests {
    @Test("bad input first: a float amount, an unknown currency, too many decimals, a bad country, an unknown language")
    func badInput() async throws {
        let client = try await DotpayFixture().connect()
        var float = paymentInfo()
        if case .object(var members) = float {
            members[1].value = .number("100.5")
            float = .object(members)
        }
        #expect(await client.error("dotpay.getChannelList", ["paymentInfo": float])?.code == .invalidParams)
        #expect(await client.error("dotpay.getChannelList", ["paymentInfo": paymentInfo(currency: "JPY")])?.code == DotpayErrorKind.currencyNotSupported.code)
        let decimals = await client.error("dotpay.getChannelList", ["paymentInfo": paymentInfo("10.001")])
        #expect(decimals?.code == .invalidParams)
        let violations = decimals?.data?.jsonText ?? ""
        #expect(violations.contains("/paymentInfo/amount"))
        var badCountry = paymentInfo()
        if case .object(var members) = badCountry {
            members.append(.init("senderInformation", ["country": "PL"]))
            members.remove(at: 4)
            badCountry = .object(members)
        }
        #expect(await client.error("dotpay.getChannelList", ["paymentInfo": badCountry])?.code == .invalidParams)
        #expect(await client.error("dotpay.setDefaultLanguage", ["language": "de"])?.code == DotpayErrorKind.languageNotSupported.code)
    }

    @Test("settings: languages, currencies, SDK version, debug mode written in payments")
    func settings() async throws {
        let client = try await DotpayFixture().connect()
        #expect(try await client.call("dotpay.getLanguageList") == ["pl", "en"])
        #expect(try await client.call("dotpay.getCurrencyList").jsonText.contains("PLN"))
        #expect(try await client.call("dotpay.getSdkVersion") == "1.4.15")
        _ = try await client.call("dotpay.setDefaultLanguage", ["language": "en"])
        _ = try await client.call("dotpay.setDebugMode", ["debugMode": true])
        _ = try await client.call("dotpay.setShowDetailsOnSummaryScreen", ["show": true])
        let list = try await client.call("dotpay.getChannelList", ["paymentInfo": paymentInfo()])
        #expect(list["paymentDetails"]?["language"] == "en")
        #expect(list["paymentDetails"]?["system"] == "test")
        // The test system answers with its own catalogue.
        #expect(list["channels"]?.jsonText.contains("9999") == true)
        #expect(list["channels"]?.jsonText.contains("mTransfer") == false)
        let paid = try await client.call("dotpay.fastPayment", ["paymentInfo": paymentInfo(), "paymentChannelId": 9999, "showingDefaultSummary": true])
        #expect(paid["system"] == "test")
        _ = try await client.call("dotpay.setDebugMode", ["debugMode": false])
        #expect(await client.error("dotpay.fastPayment", ["paymentInfo": paymentInfo(), "paymentChannelId": 9999, "showingDefaultSummary": true])?.code == DotpayErrorKind.channelNotFound.code)
    }

    @Test("the four channel-list variants, currency and amount filters, a generated control")
    func channels() async throws {
        let client = try await DotpayFixture(seed: 3).connect()
        func ids(_ params: JSONValue) async throws -> [Int] {
            guard case .array(let channels)? = try await client.call("dotpay.getChannelList", params)["channels"] else { return [] }
            return channels.compactMap { if case .number(let text)? = $0["id"] { return Int(text) } else { return nil } }
        }
        let all = try await ids(["paymentInfo": paymentInfo()])
        #expect(all.contains(73) && all.contains(11) && !all.contains(248))
        #expect(try await ids(["paymentInfo": paymentInfo(), "online": false]) == [11])
        #expect(try await ids(["paymentInfo": paymentInfo(), "ids": [73, 1]]).sorted() == [1, 73])
        #expect(try await ids(["paymentInfo": paymentInfo(), "group": "wallets"]).sorted() == [71, 212])
        #expect(try await !ids(["paymentInfo": paymentInfo("100.00", currency: "EUR")]).contains(73))
        #expect(try await !ids(["paymentInfo": paymentInfo("20000.00")]).contains(73))
        let control = try await client.call("dotpay.getChannelList", ["paymentInfo": paymentInfo()])["paymentDetails"]?["paymentInfo"]?["control"]
        #expect(control?.stringValue?.hasPrefix("ctrl-") == true)
    }

    @Test("pay: completed, rejected, still processing, completed later on the sandbox clock, a failed flow")
    func payments() async throws {
        let fixture = try DotpayFixture()
        let client = try await fixture.connect()
        func pay(_ amount: String, channel: Int = 73) async throws -> JSONValue {
            let details = try #require(try await client.call("dotpay.getChannelList", ["paymentInfo": paymentInfo(amount)])["paymentDetails"])
            return try await client.call("dotpay.pay", ["paymentDetails": details, "channelId": .int(channel)])
        }
        #expect(try await pay("100.00")["status"] == "completed")
        #expect(try await pay("13.13")["status"] == "rejected")
        #expect(try await pay("14.14")["status"] == "processing")
        #expect(try await pay("100.00", channel: 11)["status"] == "new")
        let later = try await pay("15.15")
        #expect(later["status"] == "processing")
        let id = try #require(later["paymentId"])
        #expect(try await client.call("dotpay.updatePaymentSummary", ["paymentId": id])["status"] == "processing")
        try fixture.sandbox.advance(profile: "default", by: 600)
        #expect(try await client.call("dotpay.updatePaymentSummary", ["paymentId": id])["status"] == "completed")
        let details = try #require(try await client.call("dotpay.getChannelList", ["paymentInfo": paymentInfo("16.16")])["paymentDetails"])
        #expect(await client.error("dotpay.pay", ["paymentDetails": details, "channelId": 73])?.code == DotpayErrorKind.paymentFailed.code)
        // The last channel is used when none is chosen.
        let again = try #require(try await client.call("dotpay.getChannelList", ["paymentInfo": paymentInfo("2.00")])["paymentDetails"])
        #expect(try await client.call("dotpay.pay", ["paymentDetails": again])["channelId"] == 73)
        #expect(await client.error("dotpay.pay", ["paymentDetails": again, "channelId": 999])?.code == DotpayErrorKind.channelNotFound.code)
    }

    @Test("control: unique, so a second payment with the same control is refused")
    func uniqueControl() async throws {
        let client = try await DotpayFixture().connect()
        let details = try #require(try await client.call("dotpay.getChannelList", ["paymentInfo": paymentInfo(control: "order-1")])["paymentDetails"])
        #expect(try await client.call("dotpay.pay", ["paymentDetails": details, "channelId": 73])["control"] == "order-1")
        #expect(await client.error("dotpay.pay", ["paymentDetails": details, "channelId": 73])?.code == DotpayErrorKind.duplicateControl.code)
        #expect(await client.error("dotpay.getChannelList", ["paymentInfo": paymentInfo(control: "order-1")])?.code == DotpayErrorKind.duplicateControl.code)
        // The refused payment left nothing behind: the history holds the first one only.
        guard case .array(let history) = try await client.call("dotpay.paymentHistory") else { Issue.record("no history"); return }
        #expect(history.count == 1)
        #expect(history.first?["control"] == "order-1")
    }

    @Test("fastPayment needs an online channel; parameters go through additionalInformation")
    func fast() async throws {
        let client = try await DotpayFixture().connect()
        #expect(try await client.call("dotpay.fastPayment", ["paymentInfo": paymentInfo(), "paymentChannelId": 212, "showingDefaultSummary": false])["summaryScreenShown"] == JSONValue.bool(false))
        #expect(await client.error("dotpay.fastPayment", ["paymentInfo": paymentInfo(), "paymentChannelId": 11, "showingDefaultSummary": true])?.code == DotpayErrorKind.channelUnavailable.code)
    }

    @Test("1Click: register, default, pay with the default, disable, unregister, notifications to every connection")
    func oneClick() async throws {
        let fixture = try DotpayFixture()
        let client = try await fixture.connect()
        let other = try await fixture.connect()
        _ = try await other.call("dotpay.paymentCards")
        #expect(await client.error("dotpay.oneClickPayment", ["paymentInfo": paymentInfo()])?.code == DotpayErrorKind.noDefaultCard.code)
        #expect(await client.error("dotpay.registerPaymentCard", cardInfo("4000000000000002"))?.code == DotpayErrorKind.cardRefused.code)
        #expect(await client.error("dotpay.registerPaymentCard", cardInfo("4111111111111112"))?.code == DotpayErrorKind.cardRefused.code)
        let first = try await client.call("dotpay.registerPaymentCard", cardInfo())
        #expect(first["isDefault"] == JSONValue.bool(true))
        #expect(first["maskedNumber"]?.stringValue?.contains("1111") == true)
        #expect(await other.connection.notification("dotpay.didRegisterNewCreditCard")?["card"]?["creditCardId"] == first["creditCardId"])
        #expect(await other.connection.notification("dotpay.didChangeDefaultOneClickPaymentCard") != nil)
        let second = try await client.call("dotpay.registerPaymentCard", cardInfo("5555555555554444"))
        #expect(second["isDefault"] == JSONValue.bool(false))
        let paid = try await client.call("dotpay.oneClickPayment", ["paymentInfo": paymentInfo()])
        #expect(paid["cardId"] == first["creditCardId"])
        #expect(paid["channelId"] == 248)
        _ = try await client.call("dotpay.setDefaultOneClickPaymentCard", ["creditCardId": try #require(second["creditCardId"])])
        #expect(try await client.call("dotpay.defaultOneClickPaymentCard")["card"]?["creditCardId"] == second["creditCardId"])
        _ = try await client.call("dotpay.setOneClickEnabled", ["enabled": false])
        #expect(await client.error("dotpay.oneClickPayment", ["paymentInfo": paymentInfo()])?.code == DotpayErrorKind.oneClickDisabled.code)
        #expect(try await client.call("dotpay.paymentCards").jsonText.contains("5555"))  // disabling keeps the cards
        _ = try await client.call("dotpay.setOneClickEnabled", ["enabled": true])
        _ = try await client.call("dotpay.unregisterPaymentCard", ["creditCardId": try #require(second["creditCardId"])])
        #expect(try await client.call("dotpay.defaultOneClickPaymentCard")["card"]?["creditCardId"] == first["creditCardId"])
        _ = try await client.call("dotpay.clearData")
        #expect(try await client.call("dotpay.paymentCards") == [])
        #expect(try await client.call("dotpay.defaultOneClickPaymentCard")["card"] == nil)
    }

    @Test("external cards replace each other per customer; useInternalCards hides the SDK's own; cards registered meanwhile belong to the customer")
    func externalCards() async throws {
        let client = try await DotpayFixture().connect()
        _ = try await client.call("dotpay.registerPaymentCard", cardInfo())
        let external: JSONValue = ["maskedNumber": "4444 33** **** 1111", "creditCardId": "ext-1", "brandName": "Visa",
                                   "brandCodename": "visa", "logoUrlPath": "https://example.com/visa.png"]
        let cards = try await client.call("dotpay.configureWithExternalCards", ["externalCards": [external], "customerId": "cust-9"])
        #expect(cards.jsonText.contains("ext-1"))
        let replaced = try await client.call("dotpay.configureWithExternalCards", ["externalCards": [], "customerId": "cust-9"])
        #expect(!replaced.jsonText.contains("ext-1"))
        let registered = try await client.call("dotpay.registerPaymentCard", cardInfo("5555555555554444"))
        #expect(registered["customerId"] == "cust-9" && registered["external"] == JSONValue.bool(true))
        _ = try await client.call("dotpay.setUseInternalCards", ["useInternalCards": false])
        guard case .array(let visible) = try await client.call("dotpay.paymentCards") else { Issue.record("no list"); return }
        #expect(visible.count == 1 && visible.first?["customerId"] == "cust-9")
        _ = try await client.call("dotpay.clearExternalCardsData")
        #expect(try await client.call("dotpay.paymentCards") == [])
        _ = try await client.call("dotpay.setUseInternalCards", ["useInternalCards": true])
        #expect(try await client.call("dotpay.paymentCards").jsonText.contains("1111"))
    }

    @Test("history: newest first, remove one, observers hear updates and failed updates")
    func history() async throws {
        let fixture = try DotpayFixture()
        let client = try await fixture.connect()
        let observer = try await fixture.connect()
        _ = try await observer.call("dotpay.paymentHistory.registerObserver")
        let first = try await client.call("dotpay.fastPayment", ["paymentInfo": paymentInfo("1.00"), "paymentChannelId": 73, "showingDefaultSummary": true])
        try fixture.sandbox.advance(profile: "default", by: 1)
        let failing = try await client.call("dotpay.fastPayment", ["paymentInfo": paymentInfo("17.17"), "paymentChannelId": 73, "showingDefaultSummary": true])
        guard case .array(let history) = try await client.call("dotpay.paymentHistory") else { Issue.record("no history"); return }
        #expect(history.map { $0["paymentId"] } == [failing["paymentId"], first["paymentId"]])
        _ = try await client.call("dotpay.updatePaymentSummary", ["paymentId": try #require(first["paymentId"])])
        #expect(await observer.connection.notification("dotpay.paymentHistory.didUpdatePaymentSummary")?["paymentSummary"]?["paymentId"] == first["paymentId"])
        let failed = await client.error("dotpay.updatePaymentSummary", ["paymentId": try #require(failing["paymentId"])])
        #expect(failed?.code == DotpayErrorKind.updateFailed.code)
        #expect(await observer.connection.notification("dotpay.paymentHistory.didFailedToUpdatePaymentSummary")?["error"]?["type"] == "updateFailed")
        _ = try await client.call("dotpay.removePaymentSummary", ["paymentId": try #require(first["paymentId"])])
        #expect(await client.error("dotpay.updatePaymentSummary", ["paymentId": try #require(first["paymentId"])])?.code == DotpayErrorKind.paymentNotFound.code)
    }

    @Test("seeded: payment ids, controls and card ids repeat with the seed")
    func seeded() async throws {
        func run() async throws -> [JSONValue?] {
            let client = try await DotpayFixture(seed: 11).connect()
            let paid = try await client.call("dotpay.fastPayment", ["paymentInfo": paymentInfo(), "paymentChannelId": 73, "showingDefaultSummary": true])
            let card = try await client.call("dotpay.registerPaymentCard", cardInfo())
            return [paid["paymentId"], paid["control"], card["creditCardId"]]
        }
        let first = try await run()
        #expect(first.allSatisfy { $0 != nil })
        #expect(try await run() == first)
    }

    @Test("card numbers and CVVs never reach the store in clear")
    func noSecrets() async throws {
        let fixture = try DotpayFixture()
        let client = try await fixture.connect()
        _ = try await client.call("dotpay.registerPaymentCard", ["cardInfo": ["cardNumber": "5555555555554444", "expirationMonth": 12, "expirationYear": 2030, "cvv": "987"]])
        var bytes = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path) {
            bytes += (try? Data(contentsOf: fixture.directory.appendingPathComponent(name))) ?? Data()
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.isEmpty && !text.contains("5555555555554444") && !text.contains("\"987\""))
    }
}
