import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCStore
import PayRPCTestSupport
import Testing
@testable import PBBAService
import PayRPCSecrets
import PayRPCSQLite

extension PBBAServiceTests {
    /// What survives a restart (a store closed and opened again on the same directory).
    @Suite struct Persistence {
        @Test("A request whose expiry passed while the server was down reads as expired")
        func expiredAcrossRestart() async throws {
            let clock = ManualClock()
            let first = try await PBBATestEnvironment(clock: clock)
            let app = first.harness.connect()
            let request = try await app.submit(interval: 120)
            let popup = try await app.showPopup(request, expiryInterval: 60)
            #expect(popup["action"] == "showMCommPopup")
            try await first.closeStore()

            // Still in its period after a restart...
            clock.advance(by: 30)
            let second = try await PBBATestEnvironment(directory: first.directory, clock: clock)
            let status = try await second.harness.connect().call(
                "pbba.getPaymentStatus",
                ["secureToken": .string(request.secureToken)])
            #expect(status["status"] == "inProgress")
            try await second.closeStore()

            // ...still in it after the pop-up's own 60 seconds (they do not shorten the request's)...
            clock.advance(by: 31)
            let third = try await PBBATestEnvironment(directory: first.directory, clock: clock)
            let later = try await third.harness.connect().call(
                "pbba.getPaymentStatus",
                ["secureToken": .string(request.secureToken)])
            #expect(later["status"] == "inProgress")
            try await third.closeStore()

            // ...and expired after its retrieval period passed while the server was down.
            clock.advance(by: 60)
            try await PBBATestEnvironment.run(directory: first.directory, clock: clock) { fourth in
                let client = fourth.harness.connect()
                let expired = try await client.call("pbba.getPaymentStatus", ["secureToken": .string(request.secureToken)])
                #expect(expired["status"] == "expired")
                _ = await client.expectError(
                    -33102, type: "requestExpired", "sandbox.pbba.approvePayment",
                    ["brn": .string(request.brn)])
            }
        }

        @Test("The remembered flag and a decision survive a restart")
        func flagAndDecisionAcrossRestart() async throws {
            let first = try await PBBATestEnvironment()
            let app = first.harness.connect()
            let request = try await app.submit()
            let popupId = try #require(try await app.showPopup(request)["popupId"]?.stringValue)
            _ = try await app.call("sandbox.pbba.tapOpenBankingApp", ["popupId": .string(popupId)])
            _ = try await app.call("sandbox.pbba.declinePayment", ["secureToken": .string(request.secureToken)])
            try await first.closeStore()

            try await PBBATestEnvironment.run(directory: first.directory) { second in
                let client = second.harness.connect()
                let status = try await client.call("pbba.getPaymentStatus", ["secureToken": .string(request.secureToken)])
                #expect(status["status"] == "declined")
                #expect(try await client.showPopup(try await client.submit())["action"] == "openBankingApp")
            }
        }

        @Test("The secureToken is not in the store in clear, and the flag is under the document's key")
        func storeContents() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let request = try await app.submit()
                let popupId = try #require(try await app.showPopup(request)["popupId"]?.stringValue)
                _ = try await app.call("sandbox.pbba.tapOpenBankingApp", ["popupId": .string(popupId)])
                let backend = try await environment.store.export(profile: PBBAStateBook.backendProfile).jsonText
                let device = try await environment.store.export(profile: "default").jsonText
                #expect(!backend.contains(request.secureToken))
                let key = try environment.store.secrets.keyedHash(request.secureToken, context: "pbba.secureToken")
                #expect(try environment.service.book.requestKey(for: request.secureToken) == key)
                #expect(backend.contains(key))
                #expect(backend.contains(request.brn))
                #expect(backend.contains(request.requestId))
                #expect(device.contains("com.zapp.bankapp.remembered"))
                #expect(!device.contains(request.secureToken))
            }
        }
    }
}
