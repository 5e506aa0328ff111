import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A callback caused through one gateway reaches the connection on another gateway of the same
/// PostgreSQL database that started the flow: a PBBA pop-up shown through A, the payment
/// approved (or declined) through B, and `pbba.paymentStatusChanged` on A's connection, once.
@Suite struct CrossInstancePushTests {
    @Test func aDecisionThroughOneGatewayReachesThePopupOnAnother() async throws {
        let url = try await SharedStoreTests.migratedDatabase()
        var gateways: [SpawnedServer] = []
        var addresses: [String] = []
        for _ in 0..<2 {
            let gateway = try await SpawnedServer(
                ["serve", "--tcp", "127.0.0.1:0", "--store", url], environment: ["PAYRPC_STORE_KEY": SharedStoreTests.key])
            addresses.append(try #require(await gateway.listeningAddress()))
            gateways.append(gateway)
        }
        let app = try PBBAJourneyTests.Peer(addresses[0]), bank = try PBBAJourneyTests.Peer(addresses[1])
        _ = await bank.result("rpc.hello", ["profile": "other-device"])
        for decision in ["approvePayment", "declinePayment"] {
            let request = try #require(
                await app.result("pbba.submitPaymentRequest", ["amount": "10.00", "currency": "GBP", "reference": "Order"]))
            let (token, brn) = (try #require(request["secureToken"]), try #require(request["brn"]))
            let popup = await app.result("pbba.showPBBAPopup", ["secureToken": token, "brn": brn, "expiryInterval": 300])
            let popupId = try #require(popup?["popupId"])
            let decided = await bank.result("sandbox.pbba.\(decision)", ["secureToken": token])
            let status: JSONValue = decision == "approvePayment" ? "completed" : "declined"
            #expect(decided?["status"] == status)
            let pushed = await app.notification("pbba.paymentStatusChanged", timeout: 60)
            #expect(
                pushed?["status"] == status && pushed?["brn"] == brn && pushed?["popupId"] == popupId,
                "\(String(describing: pushed))")
            // Once: nothing more about it has come by the time A answers a later call.
            _ = await app.result("rpc.health")
            #expect(!app.notifications.contains { $0["method"] == "pbba.paymentStatusChanged" })
        }
        for gateway in gateways {
            gateway.signal(SIGTERM)
            #expect(await gateway.waitForExit() == 0)
        }
    }
}
