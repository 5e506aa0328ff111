import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCTestSupport
import Testing
@testable import PBBAService

extension PBBAServiceTests {
    /// The journeys of the document, end to end through the real engine and a real SQLite store.
    @Suite struct Journeys {
        @Test("M-COMM first time: pop-up, open banking app, approve, status pushed")
        func mcommFirstTime() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                #expect(try await app.call("pbba.isCFIAppAvailable") == .bool(true))
                let request = try await app.submit()
                #expect(request.brn.count == 6)

                let popup = try await app.showPopup(request)
                #expect(popup["action"] == "showMCommPopup")
                #expect(popup["kind"] == "mcomm")
                #expect(popup["buttons"] == ["Open banking app", "Get code"])
                #expect(popup["code"] == nil)
                #expect(popup["remembered"] == .bool(false))
                let popupId = try #require(popup["popupId"]?.stringValue)

                // The Consumer taps "Open banking app": the library opens zapp:// and remembers it.
                let launch = try await app.call("sandbox.pbba.tapOpenBankingApp", ["popupId": .string(popupId)])
                #expect(launch["url"] == .string("zapp://" + request.secureToken))
                #expect(launch["remembered"] == .bool(true))
                #expect(launch["appPicker"] == .bool(false))

                let approved = try await app.call("sandbox.pbba.approvePayment", ["secureToken": .string(request.secureToken)])
                #expect(approved["status"] == "completed")

                let change = try #require(await app.notification("pbba.paymentStatusChanged"))
                #expect(change["status"] == "completed")
                #expect(change["requestId"] == .string(request.requestId))
                #expect(change["brn"] == .string(request.brn))
                #expect(change["popupId"] == .string(popupId))

                let status = try await app.call("pbba.getPaymentStatus", ["secureToken": .string(request.secureToken)])
                #expect(status["status"] == "completed")
                #expect(Amount(status["amount"]?.stringValue ?? "") == Amount(units: 10, scale: 0))
                #expect(status["reference"] == "Order 1")
            }
        }

        @Test("M-COMM second time opens the bank app at once")
        func mcommSecondTime() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let first = try await app.submit()
                let popupId = try #require(try await app.showPopup(first)["popupId"]?.stringValue)
                _ = try await app.call("sandbox.pbba.tapOpenBankingApp", ["popupId": .string(popupId)])

                let second = try await app.submit(reference: "Order 2")
                let decision = try await app.showPopup(second)
                #expect(decision["action"] == "openBankingApp")
                #expect(decision["bankAppURL"] == .string("zapp://" + second.secureToken))
                #expect(decision["popupId"] == nil)
                #expect(decision["remembered"] == .bool(true))

                _ = try await app.call("sandbox.pbba.approvePayment", ["secureToken": .string(second.secureToken)])
                let change = try #require(await app.notification("pbba.paymentStatusChanged"))
                #expect(change["requestId"] == .string(second.requestId))
                #expect(change["status"] == "completed")
                #expect(change["popupId"] == nil)
            }
        }

        @Test("E-COMM: the code is shown, the other device approves by code, the first connection is told")
        func ecommOtherDevice() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                try await app.setBankApps(0)
                #expect(try await app.call("isCFIAppAvailable") == .bool(false))
                let request = try await app.submit(amount: "25.50")
                let popup = try await app.showPopup(request)
                #expect(popup["action"] == "showECommPopup")
                #expect(popup["kind"] == "ecomm")
                #expect(popup["code"] == .string(request.brn))
                #expect(popup["instructions"]?.arrayValue?.isEmpty == false)

                let phone = environment.harness.connect()
                _ = try await phone.call("rpc.hello", ["client": "bank app", "profile": "other-device"])
                let approved = try await phone.call("sandbox.pbba.approvePayment", ["brn": .string(request.brn.lowercased())])
                #expect(approved["status"] == "completed")
                #expect(approved["requestId"] == .string(request.requestId))

                let change = try #require(await app.notification("pbba.paymentStatusChanged"))
                #expect(change["status"] == "completed")
                #expect(change["requestId"] == .string(request.requestId))
                #expect(!phone.unreadLines.contains { $0.contains("pbba.paymentStatusChanged") })
            }
        }

        @Test("The pop-up expires on a real loop timer; the request expires when the clock passes its period")
        func popupExpires() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let request = try await app.submit(interval: 3600)
                let popup = try await app.showPopup(request, expiryInterval: 1)
                let popupId = try #require(popup["popupId"]?.stringValue)

                let expired = try #require(await app.notification("pbba.popupDidExpire"))
                #expect(expired["popupId"] == .string(popupId))
                #expect(expired["requestId"] == .string(request.requestId))
                #expect(expired["suggestedPopup"]?["errorTitle"] == "Request expired")
                try environment.sandbox.advance(profile: "default", by: 3600)
                let change = try #require(await app.notification("pbba.paymentStatusChanged"))
                #expect(change["status"] == "expired")
                #expect(change["popupId"] == nil, "the pop-up left the screen when it expired")

                let status = try await app.call("pbba.getPaymentStatus", ["secureToken": .string(request.secureToken)])
                #expect(status["status"] == "expired")
                _ = await app.expectError(
                    -33102, type: "requestExpired", "sandbox.pbba.approvePayment",
                    ["secureToken": .string(request.secureToken)])
            }
        }

        @Test("Error pop-up: the Consumer taps the retry button, the app is told to retry")
        func errorPopupRetry() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let failure = await app.expectError(
                    -33108, type: "requestGenerationFailed", "pbba.submitPaymentRequest",
                    ["amount": "99.91", "currency": "GBP", "reference": "Order 9"])
                let suggested = try #require(failure?.data?["suggestedPopup"])
                let popup = try await app.call(
                    "pbba.showPBBAErrorPopup",
                    [
                        "errorTitle": try #require(suggested["errorTitle"]),
                        "errorMessage": try #require(suggested["errorMessage"]),
                    ])
                #expect(popup["kind"] == "error")
                #expect(popup["buttons"] == ["Try again"])
                let popupId = try #require(popup["popupId"]?.stringValue)

                let user = environment.harness.connect()
                #expect(try await user.call("sandbox.pbba.tapTryAgain", ["popupId": .string(popupId)]) == .null)
                let retry = try #require(await app.notification("pbba.popupRetryPaymentRequest"))
                #expect(retry["popupId"] == .string(popupId))
                // The pop-up is gone once tapped.
                _ = await user.expectError(
                    -33106, type: "popupNotFound", "sandbox.pbba.closePopup", ["popupId": .string(popupId)])
                // The retry succeeds with a normal amount.
                #expect(try await app.submit().brn.count == 6)
            }
        }

        @Test("Closing the pop-up tells the app; a later approval is still pushed")
        func closeThenApprove() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let request = try await app.submit()
                let popupId = try #require(try await app.showPopup(request)["popupId"]?.stringValue)
                _ = try await app.call("sandbox.pbba.closePopup", ["popupId": .string(popupId)])
                let closed = try #require(await app.notification("pbba.popupDidCloseByUser"))
                #expect(closed["popupId"] == .string(popupId))
                #expect(closed["kind"] == "mcomm")
                #expect(closed["requestId"] == .string(request.requestId))

                _ = try await app.call("sandbox.pbba.declinePayment", ["secureToken": .string(request.secureToken)])
                let change = try #require(await app.notification("pbba.paymentStatusChanged"))
                #expect(change["status"] == "declined")
                #expect(change["popupId"] == nil, "the closed pop-up is no longer on screen")
            }
        }

        @Test("Closing an error pop-up sends popupDidCloseByUser")
        func closeErrorPopup() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let popup = try await app.call(
                    "pbba.showPBBAErrorPopup",
                    [
                        "errorCode": "E1", "errorTitle": "Error",
                        "errorMessage": "Something went wrong.",
                    ])
                let popupId = try #require(popup["popupId"]?.stringValue)
                _ = try await app.call("sandbox.pbba.closePopup", ["popupId": .string(popupId)])
                let closed = try #require(await app.notification("pbba.popupDidCloseByUser"))
                #expect(closed["kind"] == "error")
                #expect(closed["requestId"] == nil)
            }
        }

        @Test("\"Get code\" turns the M-COMM pop-up into the code pop-up")
        func getCode() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let request = try await app.submit()
                let popupId = try #require(try await app.showPopup(request)["popupId"]?.stringValue)
                let shown = try await app.call("sandbox.pbba.tapGetCode", ["popupId": .string(popupId)])
                #expect(shown["kind"] == "ecomm")
                #expect(shown["code"] == .string(request.brn))
                #expect(shown["popupId"] == .string(popupId))
                // The code is now usable from another device.
                let phone = environment.harness.connect()
                _ = try await phone.call("sandbox.pbba.approvePayment", ["brn": .string(request.brn)])
                #expect(await app.notification("pbba.paymentStatusChanged")?["popupId"] == .string(popupId))
            }
        }

        @Test("The remembered flag is cleared when no bank app is left, so the pop-up comes back")
        func rememberedFlagCleared() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let first = try await app.submit()
                let popupId = try #require(try await app.showPopup(first)["popupId"]?.stringValue)
                _ = try await app.call("sandbox.pbba.tapOpenBankingApp", ["popupId": .string(popupId)])

                // No bank app left: the flag is void, and cleared at once (issue 28.19).
                #expect(try await app.setBankApps(0)["remembered"] == .bool(false))
                let second = try await app.submit()
                let ecomm = try await app.showPopup(second)
                #expect(ecomm["action"] == "showECommPopup")
                #expect(ecomm["remembered"] == .bool(false))

                #expect(try await app.setBankApps(1)["remembered"] == .bool(false))
                let third = try await app.submit()
                #expect(try await app.showPopup(third)["action"] == "showMCommPopup")
            }
        }

        @Test("The remembered flag belongs to the profile (one device)")
        func rememberedPerProfile() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let popupId = try #require(try await app.showPopup(try await app.submit())["popupId"]?.stringValue)
                // Another connection plays the Consumer; the flag goes to the profile that showed the pop-up.
                let consumer = environment.harness.connect()
                _ = try await consumer.call("rpc.hello", ["profile": "consumer-hands"])
                _ = try await consumer.call("sandbox.pbba.tapOpenBankingApp", ["popupId": .string(popupId)])
                let other = environment.harness.connect()
                _ = try await other.call("rpc.hello", ["profile": "second-phone"])
                #expect(try await other.showPopup(try await other.submit())["action"] == "showMCommPopup")
                #expect(try await app.showPopup(try await app.submit())["action"] == "openBankingApp")
            }
        }

        @Test("Several bank apps: the App Picker is shown")
        func appPicker() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                try await app.setBankApps(2)
                let launch = try await app.call(
                    "pbba.openBankingApp", ["secureToken": .string(try await app.submit().secureToken)])
                #expect(launch["appPicker"] == .bool(true))
            }
        }

        @Test("A closed connection's pop-up leaves the registry; approving still works")
        func closedConnection() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let request = try await app.submit()
                _ = try await app.showPopup(request)
                let key = try environment.service.book.requestKey(for: request.secureToken)
                #expect(environment.service.registry.isFollowed(requestKey: key))
                app.disconnect()
                let other = environment.harness.connect()
                // A round trip on the loop after the close: the close has been handled.
                #expect(try await other.call("rpc.health")["status"] == "SERVING")
                #expect(!environment.service.registry.isFollowed(requestKey: key))
                #expect(
                    try await other.call(
                        "sandbox.pbba.approvePayment",
                        ["secureToken": .string(request.secureToken)])["status"] == "completed")
            }
        }
    }
}
