import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCTestSupport
import Testing
@testable import PBBAService

extension PBBAServiceTests {
    /// One test per error, each reached by its documented input.
    @Suite struct Errors {
        @Test("paymentRequestNotFound (-33100): an unknown secureToken")
        func paymentRequestNotFound() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let token = String(repeating: "ab", count: 20)
                let error = await app.expectError(
                    -33100, type: "paymentRequestNotFound", "pbba.getPaymentStatus",
                    ["secureToken": .string(token)])
                #expect(error?.message == "Payment request not found")
                #expect(error?.data?["status"] == "NOT_FOUND")
                _ = await app.expectError(
                    -33100, type: "paymentRequestNotFound", "sandbox.pbba.approvePayment",
                    ["secureToken": .string(token)])
            }
        }

        @Test("brnNotFound (-33101): a code no request has")
        func brnNotFound() async throws {
            try await PBBATestEnvironment.run { environment in
                let phone = environment.harness.connect()
                let error = await phone.expectError(-33101, type: "brnNotFound", "sandbox.pbba.approvePayment", ["brn": "ZZZZZ9"])
                #expect(error?.data?["brn"] == "ZZZZZ9")
            }
        }

        @Test("requestExpired (-33102): after the retrieval period, by the clock")
        func requestExpired() async throws {
            let clock = ManualClock()
            try await PBBATestEnvironment.run(clock: clock) { environment in
                let app = environment.harness.connect()
                let request = try await app.submit(interval: 60)
                clock.advance(by: 61)
                let error = await app.expectError(
                    -33102, type: "requestExpired", "pbba.showPBBAPopup",
                    [
                        "secureToken": .string(request.secureToken), "brn": .string(request.brn),
                        "expiryInterval": 60,
                    ])
                #expect(error?.data?["status"] == "FAILED_PRECONDITION")
                #expect(error?.data?["suggestedPopup"]?["errorTitle"] == "Request expired")
                _ = await app.expectError(
                    -33102, type: "requestExpired", "sandbox.pbba.declinePayment", ["brn": .string(request.brn)])
                _ = await app.expectError(
                    -33102, type: "requestExpired", "pbba.openBankingApp",
                    ["secureToken": .string(request.secureToken)])
            }
        }

        @Test("paymentAlreadyFinished (-33103): approving twice")
        func paymentAlreadyFinished() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let request = try await app.submit()
                _ = try await app.call("sandbox.pbba.approvePayment", ["secureToken": .string(request.secureToken)])
                let error = await app.expectError(
                    -33103, type: "paymentAlreadyFinished", "sandbox.pbba.declinePayment",
                    ["secureToken": .string(request.secureToken)])
                #expect(error?.data?["currentStatus"] == "completed")
                _ = await app.expectError(
                    -33103, type: "paymentAlreadyFinished", "pbba.showPBBAPopup",
                    [
                        "secureToken": .string(request.secureToken), "brn": .string(request.brn),
                        "expiryInterval": 60,
                    ])
            }
        }

        @Test("noBankAppInstalled (-33104): openBankingApp on a device without bank apps clears the flag")
        func noBankAppInstalled() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let request = try await app.submit()
                _ = try await app.call("pbba.openBankingApp", ["secureToken": .string(request.secureToken)])
                try await app.setBankApps(0)
                _ = await app.expectError(
                    -33104, type: "noBankAppInstalled", "pbba.openBankingApp",
                    ["secureToken": .string(request.secureToken)])
                #expect(try await app.setBankApps(0)["remembered"] == .bool(false))
            }
        }

        @Test("brnMismatch (-33105): a code that is not the request's")
        func brnMismatch() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let request = try await app.submit()
                let other = try await app.submit()
                _ = await app.expectError(
                    -33105, type: "brnMismatch", "pbba.showPBBAPopup",
                    [
                        "secureToken": .string(request.secureToken), "brn": .string(other.brn),
                        "expiryInterval": 60,
                    ])
                _ = await app.expectError(
                    -33105, type: "brnMismatch", "sandbox.pbba.approvePayment",
                    ["secureToken": .string(request.secureToken), "brn": .string(other.brn)])
            }
        }

        @Test("popupNotFound (-33106): a pop-up id that is not on screen")
        func popupNotFound() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                for method in ["sandbox.pbba.closePopup", "sandbox.pbba.tapTryAgain", "sandbox.pbba.tapGetCode"] {
                    let error = await app.expectError(-33106, type: "popupNotFound", method, ["popupId": "pp_0000000000000000"])
                    #expect(error?.data?["popupId"] == "pp_0000000000000000")
                }
            }
        }

        @Test("wrongPopupKind (-33107): \"Try again\" on a payment pop-up, \"Get code\" on an error pop-up")
        func wrongPopupKind() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let payment = try #require(try await app.showPopup(try await app.submit())["popupId"]?.stringValue)
                let error = await app.expectError(
                    -33107, type: "wrongPopupKind", "sandbox.pbba.tapTryAgain",
                    ["popupId": .string(payment)])
                #expect(error?.data?["popupKind"] == "mcomm")
                let errorPopup = try #require(
                    try await app.call(
                        "pbba.showPBBAErrorPopup",
                        [
                            "errorTitle": "Error", "errorMessage": "Try later.",
                        ])["popupId"]?.stringValue)
                _ = await app.expectError(
                    -33107, type: "wrongPopupKind", "sandbox.pbba.tapGetCode",
                    ["popupId": .string(errorPopup)])
            }
        }

        @Test("requestGenerationFailed (-33108) and networkError (-33109): the magic amounts")
        func magicAmounts() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let generation = await app.expectError(
                    -33108, type: "requestGenerationFailed", "pbba.submitPaymentRequest",
                    ["amount": "99.91", "currency": "GBP", "reference": "R"])
                #expect(generation?.data?["status"] == "UNAVAILABLE")
                #expect(generation?.data?["suggestedPopup"]?["errorTitle"] == "There has been a problem")
                let network = await app.expectError(
                    -33109, type: "networkError", "submitPaymentRequest",
                    ["amount": "99.92", "currency": "GBP", "reference": "R"])
                #expect(network?.message == "Network error")
            }
        }

        @Test("Invalid params (-32602): width of 0, a code of 5, a zero amount, no target, fractional seconds")
        func invalidParams() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let width = await app.expectError(
                    -32602, type: nil, "pbba.getCustomUXConfigurations", ["width": 0, "type": "none"])
                #expect(width?.data?.jsonText.contains("/width") == true)
                _ = await app.expectError(-32602, type: nil, "pbba.getCustomUXConfigurations", ["width": -5, "type": "none"])
                _ = await app.expectError(-32602, type: nil, "pbba.getCustomUXConfigurations", ["width": 300, "type": "round"])
                _ = await app.expectError(
                    -32602, type: nil, "pbba.showPBBAPopup",
                    ["secureToken": "abc", "brn": "ABCDE", "expiryInterval": 60])
                _ = await app.expectError(
                    -32602, type: nil, "pbba.showPBBAPopup",
                    ["secureToken": "abc", "brn": "ABCDEF", "expiryInterval": .number("1.5")])
                _ = await app.expectError(
                    -32602, type: nil, "pbba.showPBBAPopup",
                    ["secureToken": "abc", "brn": "ABCDEF", "expiryInterval": 0])
                _ = await app.expectError(
                    -32602, type: nil, "pbba.showPBBAPopup",
                    ["secureToken": "abc", "brn": "ABCDEF", "expiryInterval": .number("9223372036854775807")])
                _ = await app.expectError(
                    -32602, type: nil, "pbba.showPBBAPopup",
                    ["secureToken": "abc", "brn": "ABC-EF", "expiryInterval": 60])
                let amount = await app.expectError(
                    -32602, type: nil, "pbba.submitPaymentRequest",
                    ["amount": "0", "currency": "GBP", "reference": "R"])
                #expect(amount?.data?.jsonText.contains("/amount") == true)
                _ = await app.expectError(-32602, type: nil, "sandbox.pbba.approvePayment", [:])
            }
        }

        @Test("Sandbox helpers are refused outside sandbox mode")
        func sandboxOnly() async throws {
            var configuration = EngineConfiguration()
            configuration.sandbox = false
            try await PBBATestEnvironment.run(configuration: configuration) { environment in
                let app = environment.harness.connect()
                _ = await app.expectError(-32006, type: nil, "sandbox.pbba.setBankAppsInstalled", ["count": 0])
                let available = try await app.call("pbba.isCFIAppAvailable")
                #expect(available == .bool(true))
            }
        }
    }
}
