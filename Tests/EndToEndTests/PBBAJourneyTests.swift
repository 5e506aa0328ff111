import PayRPCTestSupport
import Foundation
import PayRPCJSON
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The Pay by Bank app journeys against a spawned server, with two real socket clients: the
/// merchant app (which shows the pop-ups and receives the pushed callbacks) and the bank app on
/// another device.
@Suite struct PBBAJourneyTests {
    /// A TCP client of the spawned server that sends requests and keeps notifications apart.
    final class Peer: @unchecked Sendable {
        let socket: SocketClient
        var notifications: [JSONValue] = []
        var nextID = 0

        init(_ address: String) throws { socket = try SocketClient(tcp: address) }

        func call(_ method: String, _ params: JSONValue? = nil) async -> JSONValue? {
            nextID += 1
            let id = JSONValue.int(nextID)
            var members: [JSONValue.Member] = [.init("jsonrpc", "2.0"), .init("id", id), .init("method", .string(method))]
            if let params { members.append(.init("params", params)) }
            socket.sendLine(JSONValue.object(members).jsonText)
            while let message = await socket.nextMessage() {
                if message["id"] == id { return message }
                if message["method"] != nil { notifications.append(message) }
            }
            return nil
        }

        func result(_ method: String, _ params: JSONValue? = nil) async -> JSONValue? {
            let response = await call(method, params)
            #expect(response?["error"] == nil, "\(method): \(String(describing: response))")
            return response?["result"]
        }

        /// The params of the next notification named `method` (already received or still to come).
        func notification(_ method: String, timeout: Double = 10) async -> JSONValue? {
            if let index = notifications.firstIndex(where: { $0["method"] == .string(method) }) {
                return notifications.remove(at: index)["params"]
            }
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline, let message = await socket.nextMessage(timeout: deadline.timeIntervalSinceNow) {
                if message["method"] == .string(method) { return message["params"] }
                if message["method"] != nil { notifications.append(message) }
            }
            return nil
        }
    }

    func start() async throws -> (SpawnedServer, Peer, Peer) {
        let server = try await SpawnedServer(["serve", "--tcp", "127.0.0.1:0", "--validate-results"])
        let address = try #require(await server.listeningAddress())
        let app = try Peer(address), bank = try Peer(address)
        _ = await bank.result("rpc.hello", ["profile": "other-device"])
        return (server, app, bank)
    }

    func submit(_ app: Peer, amount: String = "10.00") async throws -> (JSONValue, JSONValue) {
        let request = try #require(
            await app.result(
                "pbba.submitPaymentRequest",
                ["amount": .string(amount), "currency": "GBP", "reference": "Order"]))
        return (try #require(request["secureToken"]), try #require(request["brn"]))
    }

    @Test func mcommFirstTimeThenRememberedThenECommFromAnotherDevice() async throws {
        let (server, app, bank) = try await start()
        #expect(await app.result("pbba.isCFIAppAvailable") == true)

        // First time: the M-COMM pop-up; the Consumer's tap on "Open banking app" sets the remembered flag.
        var (token, brn) = try await submit(app)
        let popup = await app.result("pbba.showPBBAPopup", ["secureToken": token, "brn": brn, "expiryInterval": 300])
        #expect(popup?["action"] == "showMCommPopup")
        #expect(popup?["buttons"] == ["Open banking app", "Get code"])
        let opened = await bank.result("sandbox.pbba.tapOpenBankingApp", ["popupId": try #require(popup?["popupId"])])
        #expect(opened?["url"] == .string("zapp://" + (token.stringValue ?? "")))
        #expect(opened?["remembered"] == true)
        _ = await bank.result("sandbox.pbba.approvePayment", ["secureToken": token])
        #expect(await app.notification("pbba.paymentStatusChanged")?["status"] == "completed")
        #expect(await app.result("pbba.getPaymentStatus", ["secureToken": token])?["status"] == "completed")

        // Second time: the bank app opens at once.
        (token, brn) = try await submit(app)
        let second = await app.result("pbba.showPBBAPopup", ["secureToken": token, "brn": brn, "expiryInterval": 300])
        #expect(second?["action"] == "openBankingApp")

        // No bank app: the E-COMM pop-up with the code, approved on the other device by the code.
        _ = await app.result("sandbox.pbba.setBankAppsInstalled", ["count": 0])
        (token, brn) = try await submit(app)
        let ecomm = await app.result("pbba.showPBBAPopup", ["secureToken": token, "brn": brn, "expiryInterval": 300])
        #expect(ecomm?["action"] == "showECommPopup")
        #expect(ecomm?["code"] == brn)
        _ = await bank.result("sandbox.pbba.approvePayment", ["brn": brn])
        #expect(await app.notification("pbba.paymentStatusChanged")?["status"] == "completed")
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func popupExpiresByALoopTimer() async throws {
        let (server, app, _) = try await start()
        let (token, brn) = try await submit(app, amount: "3.00")
        _ = await app.result("pbba.showPBBAPopup", ["secureToken": token, "brn": brn, "expiryInterval": 1])
        let expired = await app.notification("pbba.popupDidExpire")
        #expect(expired?["brn"] == brn)
        // The pop-up's interval is its own: the request is still in its retrieval period.
        #expect(await app.result("pbba.getPaymentStatus", ["secureToken": token])?["status"] == "inProgress")
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func clockAdvanceExpiresPopupAndRequestAtOnce() async throws {
        let (server, app, _) = try await start()
        let (token, brn) = try await submit(app, amount: "4.00")
        _ = await app.result("pbba.showPBBAPopup", ["secureToken": token, "brn": brn, "expiryInterval": 300])
        _ = await app.result("sandbox.clock.advance", ["seconds": 300])
        #expect(await app.notification("pbba.popupDidExpire")?["brn"] == brn)
        #expect(await app.notification("pbba.paymentStatusChanged")?["status"] == "expired")
        #expect(await app.result("pbba.getPaymentStatus", ["secureToken": token])?["status"] == "expired")
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func errorPopupThenTryAgain() async throws {
        let (server, app, bank) = try await start()
        let failure = await app.call("pbba.submitPaymentRequest", ["amount": "99.91", "currency": "GBP", "reference": "x"])
        #expect(failure?["error"]?["code"] == -33108)
        let popup = await app.result(
            "pbba.showPBBAErrorPopup",
            [
                "errorCode": "E1", "errorTitle": "There has been a problem",
                "errorMessage": "We were unable to generate a request at this time. Tap on the button below to try again.",
            ])
        #expect(popup?["warnings"]?.jsonText.contains("errorMessage") == true)
        let popupID = try #require(popup?["popupId"])
        _ = await bank.result("sandbox.pbba.tapTryAgain", ["popupId": popupID])
        #expect(await app.notification("pbba.popupRetryPaymentRequest")?["popupId"] == popupID)
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func customLayoutsWarnOfNarrowWidths() async throws {
        let (server, app, _) = try await start()
        #expect(
            await app.result("pbba.getCustomUXConfigurations", ["width": 320, "type": "moreAboutAndBankLogos"])?["type"]
                == "moreAboutAndBankLogos")
        let narrow = await app.result("pbba.getCustomUXConfigurations", ["width": 199, "type": "none"])
        #expect(narrow?["warnings"]?.arrayValue?.first?["field"] == "width")
        let none = await app.call("pbba.getCustomUXConfigurations", ["width": 0, "type": "none"])
        #expect(none?["error"]?["code"] == -32602)
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }
}
