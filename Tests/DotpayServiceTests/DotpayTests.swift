import DotpayService
import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import Testing
import PayRPCTestSupport
import PayRPCSQLite

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
        #expect(
            await client.error("dotpay.getChannelList", ["paymentInfo": paymentInfo(currency: "JPY")])?.code
                == DotpayErrorKind.currencyNotSupported.code)
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
        #expect(
            await client.error("dotpay.setDefaultLanguage", ["language": "de"])?.code == DotpayErrorKind.languageNotSupported.code
        )
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
        let paid = try await client.call(
            "dotpay.fastPayment", ["paymentInfo": paymentInfo(), "paymentChannelId": 9999, "showingDefaultSummary": true])
        #expect(paid["system"] == "test")
        _ = try await client.call("dotpay.setDebugMode", ["debugMode": false])
        #expect(
            await client.error(
                "dotpay.fastPayment", ["paymentInfo": paymentInfo(), "paymentChannelId": 9999, "showingDefaultSummary": true])?
                .code == DotpayErrorKind.channelNotFound.code)
    }

    @Test("the four channel-list variants, currency and amount filters, a generated control")
    func channels() async throws {
        let client = try await DotpayFixture(seed: 3).connect()
        func ids(_ params: JSONValue) async throws -> [Int] {
            guard case .array(let channels)? = try await client.call("dotpay.getChannelList", params)["channels"] else {
                return []
            }
            return channels.compactMap { if case .number(let text)? = $0["id"] { return Int(text) } else { return nil } }
        }
        let all = try await ids(["paymentInfo": paymentInfo()])
        #expect(all.contains(73) && all.contains(11) && !all.contains(248))
        #expect(try await ids(["paymentInfo": paymentInfo(), "online": false]) == [11])
        #expect(try await ids(["paymentInfo": paymentInfo(), "ids": [73, 1]]).sorted() == [1, 73])
        #expect(try await ids(["paymentInfo": paymentInfo(), "group": "wallets"]).sorted() == [71, 212])
        #expect(try await !ids(["paymentInfo": paymentInfo("100.00", currency: "EUR")]).contains(73))
        #expect(try await !ids(["paymentInfo": paymentInfo("20000.00")]).contains(73))
        let control = try await client.call("dotpay.getChannelList", ["paymentInfo": paymentInfo()])["paymentDetails"]?[
            "paymentInfo"]?["control"]
        #expect(control?.stringValue?.hasPrefix("ctrl-") == true)
    }

    @Test("pay: completed, rejected, still processing, completed later on the sandbox clock, a failed flow")
    func payments() async throws {
        let fixture = try await DotpayFixture()
        let client = try await fixture.connect()
        func pay(_ amount: String, channel: Int = 73) async throws -> JSONValue {
            let details = try #require(
                try await client.call("dotpay.getChannelList", ["paymentInfo": paymentInfo(amount)])["paymentDetails"])
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
        let details = try #require(
            try await client.call("dotpay.getChannelList", ["paymentInfo": paymentInfo("16.16")])["paymentDetails"])
        #expect(
            await client.error("dotpay.pay", ["paymentDetails": details, "channelId": 73])?.code
                == DotpayErrorKind.paymentFailed.code)
        // The last channel is used when none is chosen.
        let again = try #require(
            try await client.call("dotpay.getChannelList", ["paymentInfo": paymentInfo("2.00")])["paymentDetails"])
        #expect(try await client.call("dotpay.pay", ["paymentDetails": again])["channelId"] == 73)
        #expect(
            await client.error("dotpay.pay", ["paymentDetails": again, "channelId": 999])?.code
                == DotpayErrorKind.channelNotFound.code)
    }

    @Test("control: a repeat is accepted as the document allows (paying again after a refusal); the history keeps both")
    func repeatedControl() async throws {
        let client = try await DotpayFixture().connect()
        let refused = try await client.pay(paymentInfo("13.13", control: "order-1"))
        #expect(refused["status"] == "rejected" && refused["control"] == "order-1")
        let again = try await client.pay(paymentInfo(control: "order-1"))
        #expect(again["status"] == "completed" && again["control"] == "order-1" && again["paymentId"] != refused["paymentId"])
        guard case .array(let history) = try await client.call("dotpay.paymentHistory") else {
            Issue.record("no history")
            return
        }
        #expect(history.count == 2 && history.allSatisfy { $0["control"] == "order-1" })
        #expect(Set(history.compactMap { $0["paymentId"]?.stringValue }).count == 2)
        #expect(
            try await client.call("dotpay.updatePaymentSummary", ["paymentId": try #require(refused["paymentId"])])["status"]
                == "rejected")
    }

    @Test("every status is reachable: 18.18 waits for realization, 19.19 is being realized, and from a custom sandbox file")
    func everyStatus() async throws {
        let client = try await DotpayFixture().connect()
        #expect(try await client.pay(paymentInfo("18.18"))["status"] == "processing_realization_waiting")
        #expect(try await client.pay(paymentInfo("19.19"))["status"] == "processing_realization")
        let bundled = try #require(DotpaySandboxData.bundledFile)
        var file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: bundled)) as? [String: Any])
        file["magicAmounts"] = [
            ["amount": "5.55", "outcome": "inRealization"], ["amount": "6.66", "outcome": "awaitsRealization"],
        ]
        let custom = FileManager.default.temporaryDirectory.appendingPathComponent("dotpay-sandbox-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: file).write(to: custom)
        defer { try? FileManager.default.removeItem(at: custom) }
        let other = try await DotpayFixture(sandboxFile: custom).connect()
        #expect(try await other.pay(paymentInfo("5.55"))["status"] == "processing_realization")
        #expect(try await other.pay(paymentInfo("6.66"))["status"] == "processing_realization_waiting")
        #expect(try await other.pay(paymentInfo("18.18"))["status"] == "completed")
    }

    @Test("settings read back, and the lists' completion errors (network, general) injected")
    func settingsAndCompletionErrors() async throws {
        let fixture = try await DotpayFixture()
        let client = try await fixture.connect()
        #expect(
            try await client.call("dotpay.getSettings") == [
                "debugMode": false, "system": "production", "language": "pl", "showDetailsOnSummaryScreen": false,
                "oneClick": ["enabled": true, "useInternalCards": true, "treatsCvvAsPassword": false],
            ])
        _ = try await client.call("dotpay.setDebugMode", ["debugMode": true])
        _ = try await client.call("dotpay.setDefaultLanguage", ["language": "en"])
        _ = try await client.call("dotpay.setShowDetailsOnSummaryScreen", ["show": true])
        _ = try await client.call("dotpay.setOneClickEnabled", ["enabled": false])
        _ = try await client.call("dotpay.setUseInternalCards", ["useInternalCards": false])
        _ = try await client.call("dotpay.setTreatsCvvAsPassword", ["treatsCvvAsPassword": true])
        _ = try await client.call("dotpay.configureWithExternalCards", ["externalCards": [], "customerId": "cust-1"])
        #expect(
            try await client.call("dotpay.getSettings") == [
                "debugMode": true, "system": "test", "language": "en", "showDetailsOnSummaryScreen": true,
                "oneClick": ["enabled": false, "useInternalCards": false, "treatsCvvAsPassword": true, "customerId": "cust-1"],
            ])
        for method in ["dotpay.getLanguageList", "dotpay.getCurrencyList", "dotpay.getChannelList"] {
            for (name, kind) in [("networkError", DotpayErrorKind.networkError), ("generalError", .generalError)] {
                try fixture.harness.failNext(method, name)
                let params: JSONValue? = method == "dotpay.getChannelList" ? ["paymentInfo": paymentInfo()] : nil
                let error = await client.error(method, params)
                #expect(error?.code == kind.code && error?.data?["type"] == .string(name), "\(method) \(name)")
            }
        }
        #expect(try await client.call("dotpay.getLanguageList") == ["pl", "en"])
    }

    @Test(
        "a card saved during a form payment: the consent, the customer's context, didRegisterNewCreditCard; 1Click is not a form channel"
    )
    func cardSavedInTheForm() async throws {
        let fixture = try await DotpayFixture()
        let client = try await fixture.connect()
        let other = try await fixture.connect()
        _ = try await other.call("dotpay.paymentCards")
        let card: JSONValue = ["cardNumber": "4111111111111111", "expirationMonth": 12, "expirationYear": 2030, "cvv": "123"]
        #expect(try await client.payError(paymentInfo(), channel: 246, [.init("rememberCard", true)])?.code == .invalidParams)
        #expect(try await client.payError(paymentInfo(), channel: 73, [.init("cardInfo", card)])?.code == .invalidParams)
        let refused: JSONValue = ["cardNumber": "4000000000000002", "expirationMonth": 12, "expirationYear": 2030, "cvv": "123"]
        #expect(
            try await client.payError(paymentInfo(), channel: 246, [.init("cardInfo", refused)])?.code
                == DotpayErrorKind.cardRefused.code)
        #expect(try await client.payError(paymentInfo(), channel: 248)?.code == DotpayErrorKind.channelUnavailable.code)
        // A rejected payment remembers nothing; a card typed without the consent neither.
        _ = try await client.pay(paymentInfo("13.13"), channel: 246, [.init("cardInfo", card), .init("rememberCard", true)])
        _ = try await client.pay(paymentInfo(), channel: 246, [.init("cardInfo", card)])
        #expect(try await client.call("dotpay.paymentCards") == [])

        let paid = try await client.pay(paymentInfo(), channel: 246, [.init("cardInfo", card), .init("rememberCard", true)])
        #expect(paid["status"] == "completed")
        let registered = try #require(await other.connection.notification("dotpay.didRegisterNewCreditCard")?["card"])
        #expect(
            registered["creditCardId"] == paid["cardId"] && registered["maskedNumber"]?.stringValue?.hasSuffix("1111") == true)
        #expect(registered["isDefault"] == true && registered["external"] == false)
        #expect(
            await other.connection.notification("dotpay.didChangeDefaultOneClickPaymentCard")?["card"]?["creditCardId"]
                == paid["cardId"])
        #expect(try await client.call("dotpay.oneClickPayment", ["paymentInfo": paymentInfo("2.00")])["cardId"] == paid["cardId"])

        // In an external customer's context the card joins the customer's cards.
        _ = try await client.call("dotpay.configureWithExternalCards", ["externalCards": [], "customerId": "cust-9"])
        let mastercard: JSONValue = [
            "cardNumber": "5555555555554444", "expirationMonth": 12, "expirationYear": 2030, "cvv": "321",
        ]
        let external = try await client.pay(
            paymentInfo(), channel: 246, [.init("cardInfo", mastercard), .init("rememberCard", true)])
        let joined = try #require(await other.connection.notification("dotpay.didRegisterNewCreditCard")?["card"])
        #expect(joined["creditCardId"] == external["cardId"] && joined["customerId"] == "cust-9" && joined["external"] == true)
        _ = try await client.call("dotpay.setOneClickEnabled", ["enabled": false])
        #expect(
            try await client.payError(paymentInfo(), channel: 246, [.init("cardInfo", mastercard), .init("rememberCard", true)])?
                .code
                == DotpayErrorKind.oneClickDisabled.code)
    }

    @Test("Masterpass: the first payment creates the wallet's authorization, later ones authorize the buyer; false aborts")
    func masterpass() async throws {
        let fixture = try await DotpayFixture()
        let client = try await fixture.connect()
        let ask: [JSONValue.Member] = [.init("masterpassAuthorization", true)]
        #expect(
            await client.error("dotpay.masterpass.didAuthorizeUser", ["requestId": "mpa_unknown", "successful": true])?.code
                == DotpayErrorKind.noAuthorizationPending.code)
        // Without the delegate, nothing is asked.
        #expect(try await client.pay(paymentInfo("3.00"), channel: 71)["status"] == "completed")

        async let first = client.pay(paymentInfo("4.00"), channel: 71, ask)
        let create = try #require(await client.connection.notification("dotpay.masterpassPaymentShouldCreateAuthorizationOn"))
        #expect(
            create["amount"] == "4.00" && create["currency"] == "PLN"
                && create["control"]?.stringValue?.hasPrefix("ctrl-") == true)
        let createId = try #require(create["requestId"])
        #expect(
            await client.error("dotpay.masterpass.didAuthorizeUser", ["requestId": createId, "successful": true])?.code
                == DotpayErrorKind.noAuthorizationPending.code)
        _ = try await client.call("dotpay.masterpass.didCreateAuthorization", ["requestId": createId, "successful": true])
        #expect(try await first["status"] == "completed")

        async let second = client.payError(paymentInfo("5.00"), channel: 71, ask)
        let authorize = try #require(await client.connection.notification("dotpay.masterpassPaymentShouldAuthorizeUserPaymentOn"))
        _ = try await client.call(
            "dotpay.masterpass.didAuthorizeUser",
            ["requestId": try #require(authorize["requestId"]), "successful": false, "error": "wrong PIN"])
        let refused = try await second
        #expect(refused?.code == DotpayErrorKind.masterpassAuthorizationRefused.code)
        #expect(refused?.data?["detail"]?.stringValue?.contains("wrong PIN") == true)
        guard case .array(let history) = try await client.call("dotpay.paymentHistory") else {
            Issue.record("no history")
            return
        }
        #expect(Set(history.compactMap { $0["amount"]?.stringValue }) == ["4.00", "3.00"])

        // A payment whose connection closes while it waits is not made.
        let leaving = try await fixture.connect()
        let details = try #require(
            try await leaving.call("dotpay.getChannelList", ["paymentInfo": paymentInfo("6.00")])["paymentDetails"])
        leaving.send(
            #"{"jsonrpc":"2.0","id":99,"method":"dotpay.pay","params":{"paymentDetails":\#(details.jsonText),"channelId":71,"masterpassAuthorization":true}}"#
        )
        let question = try #require(await leaving.connection.notification("dotpay.masterpassPaymentShouldAuthorizeUserPaymentOn"))
        leaving.disconnect()
        // The loop closes the connection (cancelling its call, whose cancellation ends the wait)
        // before it reads the answer sent after it.
        let answered = await client.error(
            "dotpay.masterpass.didAuthorizeUser", ["requestId": try #require(question["requestId"]), "successful": true])
        #expect(answered?.code == DotpayErrorKind.noAuthorizationPending.code)
        guard case .array(let after) = try await client.call("dotpay.paymentHistory") else {
            Issue.record("no history")
            return
        }
        #expect(after.count == 2)
    }

    @Test("fastPayment needs an online channel; parameters go through additionalInformation")
    func fast() async throws {
        let client = try await DotpayFixture().connect()
        #expect(
            try await client.call(
                "dotpay.fastPayment", ["paymentInfo": paymentInfo(), "paymentChannelId": 212, "showingDefaultSummary": false])[
                    "summaryScreenShown"] == JSONValue.bool(false))
        #expect(
            await client.error(
                "dotpay.fastPayment", ["paymentInfo": paymentInfo(), "paymentChannelId": 11, "showingDefaultSummary": true])?.code
                == DotpayErrorKind.channelUnavailable.code)
    }

    @Test("1Click: register, default, pay with the default, disable, unregister, notifications to every connection")
    func oneClick() async throws {
        let fixture = try await DotpayFixture()
        let client = try await fixture.connect()
        let other = try await fixture.connect()
        _ = try await other.call("dotpay.paymentCards")
        #expect(
            await client.error("dotpay.oneClickPayment", ["paymentInfo": paymentInfo()])?.code
                == DotpayErrorKind.noDefaultCard.code)
        #expect(
            await client.error("dotpay.registerPaymentCard", cardInfo("4000000000000002"))?.code
                == DotpayErrorKind.cardRefused.code)
        #expect(
            await client.error("dotpay.registerPaymentCard", cardInfo("4111111111111112"))?.code
                == DotpayErrorKind.cardRefused.code)
        let first = try await client.call("dotpay.registerPaymentCard", cardInfo())
        #expect(first["isDefault"] == JSONValue.bool(true))
        #expect(first["maskedNumber"]?.stringValue?.contains("1111") == true)
        #expect(
            await other.connection.notification("dotpay.didRegisterNewCreditCard")?["card"]?["creditCardId"]
                == first["creditCardId"])
        #expect(await other.connection.notification("dotpay.didChangeDefaultOneClickPaymentCard") != nil)
        let second = try await client.call("dotpay.registerPaymentCard", cardInfo("5555555555554444"))
        #expect(second["isDefault"] == JSONValue.bool(false))
        let paid = try await client.call("dotpay.oneClickPayment", ["paymentInfo": paymentInfo()])
        #expect(paid["cardId"] == first["creditCardId"])
        #expect(paid["channelId"] == 248)
        _ = try await client.call("dotpay.setDefaultOneClickPaymentCard", ["creditCardId": try #require(second["creditCardId"])])
        #expect(try await client.call("dotpay.defaultOneClickPaymentCard")["card"]?["creditCardId"] == second["creditCardId"])
        _ = try await client.call("dotpay.setOneClickEnabled", ["enabled": false])
        #expect(
            await client.error("dotpay.oneClickPayment", ["paymentInfo": paymentInfo()])?.code
                == DotpayErrorKind.oneClickDisabled.code)
        #expect(try await client.call("dotpay.paymentCards").jsonText.contains("5555"))  // disabling keeps the cards
        _ = try await client.call("dotpay.setOneClickEnabled", ["enabled": true])
        _ = try await client.call("dotpay.unregisterPaymentCard", ["creditCardId": try #require(second["creditCardId"])])
        #expect(try await client.call("dotpay.defaultOneClickPaymentCard")["card"]?["creditCardId"] == first["creditCardId"])
        _ = try await client.call("dotpay.clearData")
        #expect(try await client.call("dotpay.paymentCards") == [])
        #expect(try await client.call("dotpay.defaultOneClickPaymentCard")["card"] == nil)
    }

    @Test(
        "external cards replace each other per customer; useInternalCards hides the SDK's own; cards registered meanwhile belong to the customer"
    )
    func externalCards() async throws {
        let client = try await DotpayFixture().connect()
        _ = try await client.call("dotpay.registerPaymentCard", cardInfo())
        let external: JSONValue = [
            "maskedNumber": "4444 33** **** 1111", "creditCardId": "ext-1", "brandName": "Visa",
            "brandCodename": "visa", "logoUrlPath": "https://example.com/visa.png",
        ]
        let cards = try await client.call(
            "dotpay.configureWithExternalCards", ["externalCards": [external], "customerId": "cust-9"])
        #expect(cards.jsonText.contains("ext-1"))
        let replaced = try await client.call("dotpay.configureWithExternalCards", ["externalCards": [], "customerId": "cust-9"])
        #expect(!replaced.jsonText.contains("ext-1"))
        let registered = try await client.call("dotpay.registerPaymentCard", cardInfo("5555555555554444"))
        #expect(registered["customerId"] == "cust-9" && registered["external"] == JSONValue.bool(true))
        _ = try await client.call("dotpay.setUseInternalCards", ["useInternalCards": false])
        guard case .array(let visible) = try await client.call("dotpay.paymentCards") else {
            Issue.record("no list")
            return
        }
        #expect(visible.count == 1 && visible.first?["customerId"] == "cust-9")
        _ = try await client.call("dotpay.clearExternalCardsData")
        #expect(try await client.call("dotpay.paymentCards") == [])
        _ = try await client.call("dotpay.setUseInternalCards", ["useInternalCards": true])
        #expect(try await client.call("dotpay.paymentCards").jsonText.contains("1111"))
    }

    @Test("history: newest first, remove one, observers hear updates and failed updates")
    func history() async throws {
        let fixture = try await DotpayFixture()
        let client = try await fixture.connect()
        let observer = try await fixture.connect()
        _ = try await observer.call("dotpay.paymentHistory.registerObserver")
        let first = try await client.call(
            "dotpay.fastPayment", ["paymentInfo": paymentInfo("1.00"), "paymentChannelId": 73, "showingDefaultSummary": true])
        try fixture.sandbox.advance(profile: "default", by: 1)
        let failing = try await client.call(
            "dotpay.fastPayment", ["paymentInfo": paymentInfo("17.17"), "paymentChannelId": 73, "showingDefaultSummary": true])
        guard case .array(let history) = try await client.call("dotpay.paymentHistory") else {
            Issue.record("no history")
            return
        }
        #expect(history.map { $0["paymentId"] } == [failing["paymentId"], first["paymentId"]])
        _ = try await client.call("dotpay.updatePaymentSummary", ["paymentId": try #require(first["paymentId"])])
        #expect(
            await observer.connection.notification("dotpay.paymentHistory.didUpdatePaymentSummary")?["paymentSummary"]?[
                "paymentId"] == first["paymentId"])
        let failed = await client.error("dotpay.updatePaymentSummary", ["paymentId": try #require(failing["paymentId"])])
        #expect(failed?.code == DotpayErrorKind.updateFailed.code)
        #expect(
            await observer.connection.notification("dotpay.paymentHistory.didFailedToUpdatePaymentSummary")?["error"]?["type"]
                == "updateFailed")
        _ = try await client.call("dotpay.removePaymentSummary", ["paymentId": try #require(first["paymentId"])])
        #expect(
            await client.error("dotpay.updatePaymentSummary", ["paymentId": try #require(first["paymentId"])])?.code
                == DotpayErrorKind.paymentNotFound.code)
    }

    @Test("seeded: payment ids, controls and card ids repeat with the seed")
    func seeded() async throws {
        func run() async throws -> [JSONValue?] {
            let client = try await DotpayFixture(seed: 11).connect()
            let paid = try await client.call(
                "dotpay.fastPayment", ["paymentInfo": paymentInfo(), "paymentChannelId": 73, "showingDefaultSummary": true])
            let card = try await client.call("dotpay.registerPaymentCard", cardInfo())
            return [paid["paymentId"], paid["control"], card["creditCardId"]]
        }
        let first = try await run()
        #expect(first.allSatisfy { $0 != nil })
        #expect(try await run() == first)
    }

    @Test("card numbers and CVVs never reach the store in clear")
    func noSecrets() async throws {
        let fixture = try await DotpayFixture()
        let client = try await fixture.connect()
        _ = try await client.call(
            "dotpay.registerPaymentCard",
            ["cardInfo": ["cardNumber": "5555555555554444", "expirationMonth": 12, "expirationYear": 2030, "cvv": "987"]])
        var bytes = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path) {
            bytes += (try? Data(contentsOf: fixture.directory.appendingPathComponent(name))) ?? Data()
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.isEmpty && !text.contains("5555555555554444") && !text.contains("\"987\""))
    }
}
