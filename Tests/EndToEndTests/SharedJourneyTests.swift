import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing

/// The services' journeys on three gateways that share one PostgreSQL database, each call of a
/// journey on the next gateway in turn (issue 30.6: "the services' journeys with consecutive
/// calls landing on different instances"). Every gateway serves the profile `default` over
/// stdio; what a call leaves behind is only in the database, so the next call, on another
/// gateway, finds it there or the journey breaks.
///
/// Serialized: each test starts three gateways, and six tests' eighteen at once (under
/// ThreadSanitizer, beside the rest of the suite) starved the other tests of the machine's two
/// cores for minutes.
@Suite(.serialized) struct SharedJourneyTests {
    /// Three gateways on one freshly migrated database; calls go to each in turn.
    final class Spread: @unchecked Sendable {
        let gateways: [SpawnedServer]
        /// The database's URL.
        let url: String
        private var turn = 0
        private var nextID = 0

        init(_ arguments: [String] = []) async throws {
            (url, gateways) = try await SharedDatabase.gateways(3, ["--stdio", "--validate-results"] + arguments)
        }

        /// The whole response of `method` from the next gateway in turn, or from gateway `index`
        /// (what belongs to one connection's session, such as a Tatra flow, stays on its gateway).
        func call(_ method: String, _ params: JSONValue? = nil, on index: Int? = nil) async -> JSONValue? {
            let gateway = gateways[index ?? turn % gateways.count]
            if index == nil { turn += 1 }
            nextID += 1
            // The first call of a gateway connects to the database and prepares its statements:
            // on a machine loaded by the whole suite that can take longer than a line's usual wait.
            gateway.send(
                JSONValue.object(
                    [.init("jsonrpc", "2.0"), .init("id", .int(nextID)), .init("method", .string(method))]
                        + (params.map { [.init("params", $0)] } ?? [])
                ).jsonText)
            while let message = await gateway.nextMessage(timeout: 90) {
                if message["id"] == .int(nextID) { return message }
            }
            return nil
        }

        /// The result of `method` from the next gateway, recording an error if there is one.
        func result(
            _ method: String, _ params: JSONValue? = nil, on index: Int? = nil,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async -> JSONValue? {
            let response = await call(method, params, on: index)
            #expect(
                response?["error"] == nil, "\(method): \(String(describing: response))", sourceLocation: sourceLocation)
            return response?["result"]
        }

        /// Closes every gateway's input and expects a clean exit.
        func finish() async {
            for gateway in gateways { gateway.closeInput() }
            for gateway in gateways { #expect(await gateway.waitForExit() == 0, "\(gateway.logText)") }
        }
    }

    /// A Tatra flow is the app's session on one connection (a payment executed in one flow is
    /// authorized in that flow), so the flow's calls stay on gateway 0; the profile's data, its
    /// PIN attempts and its authorization cross.
    @Test func tatraFlowOnOneGatewayProfileStateOnOthers() async throws {
        let spread = try await Spread()
        #expect(await spread.result("tatra.onFlowStart", on: 0) == .null)
        #expect(await spread.result("tatra.fetchSetupData")?["isActivated"] == true)
        #expect(await spread.result("tatra.fetchTopContacts")?.arrayValue?.first?["fullName"] == "Jana Nováková")
        let confirmation = await spread.result(
            "tatra.executePayment", ["amount": "12.50", "contact": TatraJourneyTests.jana, "reference": "Invoice 2026-001"],
            on: 0)
        #expect(confirmation?.stringValue?.contains("12.50") == true)
        let wrong = await spread.call("tatra.authorizePayment", ["pincode": "0000"], on: 0)
        #expect(wrong?["error"]?["code"] == -33007)
        #expect(
            await spread.result("tatra.authorizePayment", ["pincode": "1234"], on: 0)?.stringValue?.contains("TB-000001")
                == true)
        #expect(await spread.call("tatra.fetchBalance")?["error"]?["data"]?["type"] == "authRequired")
        #expect(await spread.result("tatra.authorize", ["pincode": "1234"]) == .null)
        #expect(await spread.result("tatra.fetchBalance")?["balance"] == "1510.97")
        await spread.finish()
    }

    @Test func northstarOrdersAuthorizedCapturedAndPaidByNonceOnOtherGateways() async throws {
        let spread = try await Spread()
        let (visa, units) = (NorthstarJourneyTests.visa, NorthstarJourneyTests.units)
        #expect(await spread.result("northstar.configure", ["clientID": "e2e"])?["clientID"] == "e2e")
        let created = await spread.result("northstar.executeOrder", ["orderRequest": ["purchaseUnitList": units], "card": visa])
        #expect(created?["status"] == "COMPLETED")
        let order = await spread.result("sandbox.northstar.createOrder", ["intent": "AUTHORIZE", "purchaseUnits": units])
        let id = try #require(order?["orderID"])
        let authorization = try #require(
            await spread.result("northstar.executeOrder", ["orderID": id, "card": visa])?["transaction"]?["id"])
        #expect(await spread.call("northstar.executeOrder", ["orderID": id, "card": visa])?["error"]?["code"] == -33312)
        let part = await spread.result(
            "northstar.captureAuthorization",
            ["authorizationID": authorization, "amount": ["currencyCode": "USD", "value": "4.00"]])
        #expect(part?["amount"]?["value"] == "4.00")
        let rest = await spread.result(
            "northstar.captureAuthorization", ["authorizationID": authorization, "finalCapture": true])
        #expect(rest?["amount"]?["value"] == "6.00")
        #expect(
            await spread.call("northstar.captureAuthorization", ["authorizationID": authorization])?["error"]?["code"] == -33315)
        let secure: JSONValue = ["number": "4000000000003220", "expiry": "2199-12"]
        let pending = await spread.call("northstar.executeOrder", ["orderRequest": ["purchaseUnits": units], "card": secure])
        let pendingID = try #require(pending?["error"]?["data"]?["orderID"])
        _ = await spread.result("sandbox.northstar.completePayerAction", ["orderID": pendingID])
        #expect(await spread.result("northstar.executeOrder", ["orderID": pendingID])?["status"] == "COMPLETED")
        let nonce = try #require(await spread.result("northstar.tokenizeCard", ["card": visa])?["nonce"])
        #expect(
            await spread.result("northstar.executeOrder", ["orderRequest": ["purchaseUnitList": units], "nonce": nonce])?[
                "status"]
                == "COMPLETED")
        await spread.finish()
    }

    @Test func pbbaRequestStatusAndDecisionOnOtherGateways() async throws {
        let spread = try await Spread()
        let request = try #require(
            await spread.result("pbba.submitPaymentRequest", ["amount": "10.00", "currency": "GBP", "reference": "Order"]))
        let token = try #require(request["secureToken"])
        #expect(await spread.result("pbba.getPaymentStatus", ["secureToken": token])?["status"] == "inProgress")
        _ = await spread.result("sandbox.pbba.approvePayment", ["secureToken": token])
        #expect(await spread.result("pbba.getPaymentStatus", ["secureToken": token])?["status"] == "completed")
        await spread.finish()
    }

    @Test func dotpayPaymentCompletedOnTheClockAndOneClickOnOtherGateways() async throws {
        let spread = try await Spread()
        let list = try #require(
            await spread.result("dotpay.getChannelList", ["paymentInfo": DotpayJourneyTests.payment, "group": "blik"]))
        let details = try #require(list["paymentDetails"])
        let paid = try #require(await spread.result("dotpay.pay", ["paymentDetails": details, "channelId": 73]))
        #expect(paid["status"] == "processing")
        // The clock advanced through one gateway is the time the read through the next one meets.
        _ = await spread.result("sandbox.clock.advance", ["seconds": 600])
        let paymentID = try #require(paid["paymentId"])
        let updated = await spread.result("dotpay.updatePaymentSummary", ["paymentId": paymentID])
        #expect(updated?["status"] == "completed")
        let card = await spread.result(
            "dotpay.registerPaymentCard",
            ["cardInfo": ["cardNumber": "5555555555554444", "expirationMonth": 12, "expirationYear": 2199, "cvv": "987"]])
        #expect(card?["isDefault"] == .bool(true))
        let oneClick = await spread.result(
            "oneClickPayment", ["paymentInfo": ["merchantID": "10000", "amount": "9.99", "textDescription": "1Click"]])
        #expect(oneClick?["cardId"] == card?["creditCardId"])
        if case .array(let entries)? = await spread.result("dotpay.paymentHistory") {
            #expect(entries.count == 2)
        } else {
            Issue.record("no history")
        }
        await spread.finish()
    }

    @Test func journalCardPaymentFromOpenerToTheBackendOnOtherGateways() async throws {
        let backend = try await JournalJourneyTests.Backend()
        let spread = try await Spread(["--journal-backend", backend.url])
        try await Self.cardPaymentDelivered(spread, to: backend)
        await spread.finish()
    }

    /// The journal's backend set through one gateway (`journal.configure`) is where every gateway
    /// delivers the profile's entries, and the database holds its URL, credentials and all, only
    /// sealed.
    @Test func journalBackendConfiguredThroughOneGatewayServesEveryOneAndIsStoredSealed() async throws {
        let backend = try await JournalJourneyTests.Backend()
        let spread = try await Spread()
        let configured = "http://journal-user:s3cret-pass@127.0.0.1:\(backend.backend.port)"
        _ = await spread.result("journal.configure", ["backendURL": .string(configured)])
        try await Self.cardPaymentDelivered(spread, to: backend)
        await spread.finish()
        let export = try await ChildRun.run(
            SpawnedServer.binary, ["data", "export", "--profile", "default", "--store", spread.url],
            environment: ["PAYRPC_STORE_KEY": SharedDatabase.key])
        #expect(export.status == 0)
        #expect(export.output.contains("sealedBackendURL"))
        #expect(!export.output.contains("s3cret-pass") && !export.output.contains("journal-user"))
    }

    /// A card payment from `opener://` to the backend's `/journals/` post, each step on the next
    /// gateway: the entry is delivered, and the backend got its two POSTs.
    static func cardPaymentDelivered(_ spread: Spread, to backend: JournalJourneyTests.Backend) async throws {
        let opened = await spread.result(
            "journal.openURL",
            ["url": "opener://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10000&Startup_Mode=1"])
        let handoff = try #require(opened?["url"])
        let callback = try #require(await spread.result("sandbox.journal.completePayment", ["url": handoff])?["callbackURL"])
        let entry = try #require(await spread.result("journal.handleCallback", ["url": callback]))
        _ = await spread.result("journal.sync")
        let stored = await spread.result("journal.get", ["entryId": entry["entryId"] ?? .null])
        #expect(stored?["delivery"]?["status"] == "delivered")
        let requests = try await backend.get("/_requests") as? [[String: Any]] ?? []
        #expect(requests.map { $0["path"] as? String } == ["/payments/", "/journals/"])
    }
}
