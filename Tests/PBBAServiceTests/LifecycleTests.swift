import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCTestSupport
import Testing
@testable import PBBAService

extension PBBAServiceTests {
    /// The sandbox controls as `pbba` uses them (the profile's clock, seeded values) and the
    /// library's behaviour the document defines: tokens from any backend, the remembered flag,
    /// the pop-up's lifecycle. Tests that move the sandbox clock run on a frozen wall clock
    /// (`ManualClock`), so that only the advance moves time, however loaded the machine is.
    @Suite struct Lifecycle {
        /// A secureToken and code as a real Distributor might issue them.
        static let outsideToken = "dist-7f3a9c01.ZZ~token"
        static let outsideBRN = "Q4RT7W"

        static func showOutside(_ app: TestConnection, expiryInterval: Int = 120) async throws -> JSONValue {
            try await app.call(
                "pbba.showPBBAPopup",
                [
                    "secureToken": .string(outsideToken), "brn": .string(outsideBRN),
                    "expiryInterval": .int(expiryInterval),
                ])
        }

        // MARK: The sandbox clock

        @Test("Advancing the profile's clock past the pop-up's expiry fires popupDidExpire at once, no sleep")
        func clockAdvanceExpiresPopup() async throws {
            try await PBBATestEnvironment.run(clock: ManualClock()) { environment in
                let app = environment.harness.connect()
                let request = try await app.submit(interval: 300)
                let popupId = try #require(try await app.showPopup(request)["popupId"]?.stringValue)

                try environment.sandbox.advance(profile: "default", by: 299)
                #expect(try await app.call("rpc.health")["status"] == "SERVING")
                #expect(!app.unreadLines.contains { $0.contains("pbba.popupDidExpire") }, "not yet due")

                try environment.sandbox.advance(profile: "default", by: 1)
                let expired = try #require(await app.notification("pbba.popupDidExpire"))
                #expect(expired["popupId"] == .string(popupId))
                let change = try #require(await app.notification("pbba.paymentStatusChanged"))
                #expect(change["status"] == "expired")
                #expect(change["popupId"] == .string(popupId))
                let status = try await app.call("pbba.getPaymentStatus", ["secureToken": .string(request.secureToken)])
                #expect(status["status"] == "expired")
                _ = await app.expectError(
                    -33106, type: "popupNotFound", "sandbox.pbba.closePopup",
                    ["popupId": .string(popupId)])
            }
        }

        @Test("Another profile's clock does not expire this profile's pop-up")
        func otherProfileClock() async throws {
            try await PBBATestEnvironment.run(clock: ManualClock()) { environment in
                let app = environment.harness.connect()
                let request = try await app.submit(interval: 60)
                _ = try await app.showPopup(request)
                try environment.sandbox.advance(profile: "someone-else", by: 3600)
                #expect(try await app.call("rpc.health")["status"] == "SERVING")
                #expect(!app.unreadLines.contains { $0.contains("pbba.popupDidExpire") })
                let status = try await app.call("pbba.getPaymentStatus", ["secureToken": .string(request.secureToken)])
                #expect(status["status"] == "inProgress")
            }
        }

        @Test("The pop-up's expiryInterval is its own: the request keeps its retrieval period")
        func popupExpiryDoesNotShortenRequest() async throws {
            try await PBBATestEnvironment.run(clock: ManualClock()) { environment in
                let app = environment.harness.connect()
                let request = try await app.submit(interval: 600)
                let popup = try await app.showPopup(request, expiryInterval: 60)
                let popupId = try #require(popup["popupId"]?.stringValue)

                try environment.sandbox.advance(profile: "default", by: 60)
                let expired = try #require(await app.notification("pbba.popupDidExpire"))
                #expect(expired["popupId"] == .string(popupId))
                let status = try await app.call("pbba.getPaymentStatus", ["secureToken": .string(request.secureToken)])
                #expect(status["status"] == "inProgress")
                #expect(status["expiresAt"] == .string(request.expiresAt))
                // A new pop-up for the same request, and the bank app still approves it.
                _ = try await app.showPopup(request, expiryInterval: 60)
                _ = try await app.call("sandbox.pbba.approvePayment", ["secureToken": .string(request.secureToken)])
                #expect(await app.notification("pbba.paymentStatusChanged")?["status"] == "completed")
            }
        }

        // MARK: Seeded values

        @Test("Under a seed, secureTokens, codes, request and pop-up ids repeat call for call")
        func seededValues() async throws {
            func transcript(seed: UInt64?) async throws -> [String] {
                var values: [String] = []
                try await PBBATestEnvironment.run(seed: seed) { environment in
                    let app = environment.harness.connect()
                    for _ in 0..<3 {
                        let request = try await app.submit()
                        let popup = try await app.showPopup(request)
                        values += [
                            request.secureToken, request.brn, request.requestId,
                            popup["popupId"]?.stringValue ?? "-",
                        ]
                    }
                }
                return values
            }
            let first = try await transcript(seed: 42)
            #expect(try await transcript(seed: 42) == first)
            #expect(try await transcript(seed: 43) != first)
            let random = try await transcript(seed: nil)
            #expect(try await transcript(seed: nil) != random)
            #expect(Set(first).count == first.count)
        }

        @Test("Profiles under one seed draw different tokens and ids: the backend they share never collides")
        func seededProfilesDiffer() async throws {
            try await PBBATestEnvironment.run(seed: 9) { environment in
                let app = environment.harness.connect()
                let other = environment.harness.connect()
                _ = try await other.call("rpc.hello", ["profile": "second-phone"])
                let mine = try await app.submit(), theirs = try await other.submit()
                #expect(mine.secureToken != theirs.secureToken)
                #expect(mine.requestId != theirs.requestId)
            }
        }

        @Test("A seeded stream that starts again never overwrites a stored request")
        func restartedStreamDoesNotOverwrite() async throws {
            try await PBBATestEnvironment.run(seed: 9) { environment in
                let app = environment.harness.connect()
                let first = try await app.submit(amount: "1.00")
                _ = try await app.call("sandbox.pbba.declinePayment", ["secureToken": .string(first.secureToken)])
                environment.sandbox.reset(profile: "default")
                let second = try await app.submit(amount: "2.00")
                #expect(second.secureToken != first.secureToken)
                let old = try await app.call("pbba.getPaymentStatus", ["secureToken": .string(first.secureToken)])
                #expect(old["status"] == "declined")
                #expect(old["amount"] == "1.00")
                let new = try await app.call("pbba.getPaymentStatus", ["secureToken": .string(second.secureToken)])
                #expect(new["status"] == "inProgress")
            }
        }

        @Test("A request's expiry is on its maker's clock: another profile's advance does not expire it")
        func requestOnMakersClock() async throws {
            try await PBBATestEnvironment.run(clock: ManualClock()) { environment in
                let app = environment.harness.connect()
                try environment.sandbox.advance(profile: "default", by: 3600)
                _ = try await Self.showOutside(app)
                let phone = environment.harness.connect()
                _ = try await phone.call("rpc.hello", ["profile": "distributor"])
                _ = try await phone.call(
                    "sandbox.pbba.registerExternalRequest",
                    [
                        "secureToken": .string(Self.outsideToken), "brn": .string(Self.outsideBRN), "amount": "3.00",
                        "currency": "GBP", "reference": "R",
                    ])
                _ = try await phone.call("sandbox.pbba.approvePayment", ["brn": .string(Self.outsideBRN)])
                #expect(await app.notification("pbba.paymentStatusChanged")?["status"] == "completed")
                let status = try await app.call("pbba.getPaymentStatus", ["secureToken": .string(Self.outsideToken)])
                #expect(status["status"] == "completed")
            }
        }

        // MARK: Tokens from any backend

        @Test("A token from another backend is shown; registering it links the pop-up to the bank app side")
        func outsideToken() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let popup = try await Self.showOutside(app)
                #expect(popup["action"] == "showMCommPopup")
                #expect(popup["requestId"] == nil)
                let popupId = try #require(popup["popupId"]?.stringValue)
                let code = try await app.call("sandbox.pbba.tapGetCode", ["popupId": .string(popupId)])
                #expect(code["code"] == .string(Self.outsideBRN))

                let phone = environment.harness.connect()
                _ = await phone.expectError(
                    -33101, type: "brnNotFound", "sandbox.pbba.approvePayment",
                    ["brn": .string(Self.outsideBRN)])
                let registered = try await phone.call(
                    "sandbox.pbba.registerExternalRequest",
                    [
                        "secureToken": .string(Self.outsideToken), "brn": .string(Self.outsideBRN.lowercased()),
                        "amount": "42.00", "currency": "GBP", "reference": "Distributor 1",
                    ])
                #expect(registered["status"] == "inProgress")
                #expect(registered["brn"] == .string(Self.outsideBRN))
                let requestId = try #require(registered["requestId"]?.stringValue)

                let approved = try await phone.call("sandbox.pbba.approvePayment", ["brn": .string(Self.outsideBRN)])
                #expect(approved["status"] == "completed")
                let change = try #require(await app.notification("pbba.paymentStatusChanged"))
                #expect(change["requestId"] == .string(requestId))
                #expect(change["popupId"] == .string(popupId))
                let status = try await app.call("pbba.getPaymentStatus", ["secureToken": .string(Self.outsideToken)])
                #expect(status["status"] == "completed")
                #expect(Amount(status["amount"]?.stringValue ?? "") == Amount(units: 42, scale: 0))
            }
        }

        @Test("openBankingApp opens any well-formed token without a request behind it")
        func outsideTokenOpensBankApp() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let launch = try await app.call("pbba.openBankingApp", ["secureToken": .string(Self.outsideToken)])
                #expect(launch["url"] == .string("zapp://" + Self.outsideToken))
                #expect(launch["remembered"] == .bool(false))
            }
        }

        @Test("An unregistered outside pop-up expires without a requestId and without a status change")
        func outsidePopupExpires() async throws {
            try await PBBATestEnvironment.run(clock: ManualClock()) { environment in
                let app = environment.harness.connect()
                let popupId = try #require(try await Self.showOutside(app, expiryInterval: 30)["popupId"]?.stringValue)
                try environment.sandbox.advance(profile: "default", by: 30)
                let expired = try #require(await app.notification("pbba.popupDidExpire"))
                #expect(expired["popupId"] == .string(popupId))
                #expect(expired["requestId"] == nil)
                #expect(expired["brn"] == .string(Self.outsideBRN))
                #expect(try await app.call("rpc.health")["status"] == "SERVING")
                #expect(!app.unreadLines.contains { $0.contains("pbba.paymentStatusChanged") })
            }
        }

        @Test("secureTokenInUse (-33110) and brnInUse (-33111): registering what is already known")
        func registerConflicts() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let own = try await app.submit()
                let inUse = await app.expectError(
                    -33110, type: "secureTokenInUse", "sandbox.pbba.registerExternalRequest",
                    [
                        "secureToken": .string(own.secureToken), "brn": "AAAAAA", "amount": "1.00", "currency": "GBP",
                        "reference": "R",
                    ])
                #expect(inUse?.data?["requestId"] == .string(own.requestId))
                let code = await app.expectError(
                    -33111, type: "brnInUse", "sandbox.pbba.registerExternalRequest",
                    [
                        "secureToken": "another-token", "brn": .string(own.brn), "amount": "1.00", "currency": "GBP",
                        "reference": "R",
                    ])
                #expect(code?.data?["brn"] == .string(own.brn))
                _ = await app.expectError(
                    -32602, type: nil, "sandbox.pbba.registerExternalRequest",
                    [
                        "secureToken": "another-token", "brn": "ABC", "amount": "1.00", "currency": "GBP", "reference": "R",
                    ])
                _ = await app.expectError(
                    -32602, type: nil, "sandbox.pbba.registerExternalRequest",
                    [
                        "secureToken": "another-token", "brn": "ABCDEF", "amount": "0", "currency": "GBP", "reference": "R",
                    ])
            }
        }

        // MARK: The remembered flag

        @Test("Only the Consumer's tap on \"Open banking app\" sets the remembered flag")
        func rememberedOnlyByTap() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let request = try await app.submit()
                let launch = try await app.call("pbba.openBankingApp", ["secureToken": .string(request.secureToken)])
                #expect(launch["remembered"] == .bool(false))
                #expect(try await app.showPopup(try await app.submit())["action"] == "showMCommPopup")
                #expect(try await app.setBankApps(1)["remembered"] == .bool(false))
            }
        }

        @Test("\"Open banking app\" is on the M-COMM pop-up only; with no bank app left it fails and clears the flag")
        func tapOpenBankingAppErrors() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let mcomm = try #require(try await app.showPopup(try await app.submit())["popupId"]?.stringValue)
                let error = try #require(
                    try await app.call("pbba.showPBBAErrorPopup", ["errorTitle": "Error", "errorMessage": "x"])["popupId"]?
                        .stringValue)
                let wrong = await app.expectError(
                    -33107, type: "wrongPopupKind", "sandbox.pbba.tapOpenBankingApp",
                    ["popupId": .string(error)])
                #expect(wrong?.data?["expectedKinds"] == ["mcomm"])
                _ = try await app.call("sandbox.pbba.tapGetCode", ["popupId": .string(mcomm)])
                _ = await app.expectError(
                    -33107, type: "wrongPopupKind", "sandbox.pbba.tapOpenBankingApp",
                    ["popupId": .string(mcomm)])

                let next = try #require(try await app.showPopup(try await app.submit())["popupId"]?.stringValue)
                try await app.setBankApps(0)
                _ = await app.expectError(
                    -33104, type: "noBankAppInstalled", "sandbox.pbba.tapOpenBankingApp",
                    ["popupId": .string(next)])
                #expect(try await app.setBankApps(1)["remembered"] == .bool(false))
            }
        }

        // MARK: The pop-up's lifecycle

        @Test("The merchant dismisses its pop-up: no callback, the status still follows")
        func dismiss() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let request = try await app.submit()
                let popupId = try #require(try await app.showPopup(request)["popupId"]?.stringValue)
                let stranger = environment.harness.connect()
                _ = await stranger.expectError(
                    -33106, type: "popupNotFound", "pbba.dismissPopup",
                    ["popupId": .string(popupId)])
                #expect(try await app.call("pbba.dismissPopup", ["popupId": .string(popupId)]) == .null)
                _ = await app.expectError(
                    -33106, type: "popupNotFound", "sandbox.pbba.closePopup",
                    ["popupId": .string(popupId)])
                _ = try await stranger.call("sandbox.pbba.approvePayment", ["secureToken": .string(request.secureToken)])
                let change = try #require(await app.notification("pbba.paymentStatusChanged"))
                #expect(change["status"] == "completed")
                #expect(change["popupId"] == nil)
                #expect(!app.unreadLines.contains { $0.contains("pbba.popupDidCloseByUser") })
            }
        }

        @Test("A decision shows in the pop-up: it stays on screen, no longer expires, and is dismissed after")
        func decisionKeepsPopup() async throws {
            try await PBBATestEnvironment.run(clock: ManualClock()) { environment in
                let app = environment.harness.connect()
                let request = try await app.submit(interval: 120)
                let popupId = try #require(try await app.showPopup(request)["popupId"]?.stringValue)
                _ = try await app.call("sandbox.pbba.declinePayment", ["secureToken": .string(request.secureToken)])
                #expect(await app.notification("pbba.paymentStatusChanged")?["popupId"] == .string(popupId))

                try environment.sandbox.advance(profile: "default", by: 600)
                #expect(try await app.call("rpc.health")["status"] == "SERVING")
                #expect(!app.unreadLines.contains { $0.contains("pbba.popupDidExpire") })
                #expect(try await app.call("pbba.dismissPopup", ["popupId": .string(popupId)]) == .null)
            }
        }

        @Test("\"More about\" opens over a payment pop-up, closes with no callback, and goes with its parent")
        func moreAbout() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let popupId = try #require(try await app.showPopup(try await app.submit())["popupId"]?.stringValue)
                let more = try await app.call("sandbox.pbba.tapMoreAbout", ["popupId": .string(popupId)])
                #expect(more["kind"] == "moreAbout")
                #expect(more["parentPopupId"] == .string(popupId))
                #expect(more["content"]?["steps"]?.arrayValue?.count == 3)
                let moreId = try #require(more["popupId"]?.stringValue)
                _ = try await app.call("sandbox.pbba.closePopup", ["popupId": .string(moreId)])
                #expect(try await app.call("rpc.health")["status"] == "SERVING")
                #expect(!app.unreadLines.contains { $0.contains("pbba.popupDidCloseByUser") })

                let again = try #require(
                    try await app.call("sandbox.pbba.tapMoreAbout", ["popupId": .string(popupId)])["popupId"]?.stringValue)
                _ = try await app.call("sandbox.pbba.closePopup", ["popupId": .string(popupId)])
                #expect(await app.notification("pbba.popupDidCloseByUser")?["popupId"] == .string(popupId))
                _ = await app.expectError(-33106, type: "popupNotFound", "sandbox.pbba.closePopup", ["popupId": .string(again)])
                let error = try #require(
                    try await app.call("pbba.showPBBAErrorPopup", ["errorTitle": "Error", "errorMessage": "x"])["popupId"]?
                        .stringValue)
                _ = await app.expectError(
                    -33107, type: "wrongPopupKind", "sandbox.pbba.tapMoreAbout", ["popupId": .string(error)])
            }
        }

        // MARK: Injected failures

        @Test("Every error carries sample data valid for sandbox.failNext")
        func sampleData() {
            for kind in PBBAErrorKind.allCases {
                let sample = kind.descriptor.sampleData
                #expect(sample?["type"] == .string(kind.rawValue))
                #expect(sample?["status"] == .string(kind.status.rawValue))
                #expect(sample?["fatal"] == .bool(kind.fatal))
            }
        }
    }
}
