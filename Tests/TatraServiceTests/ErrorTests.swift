import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit
import PayRPCTestSupport
import Testing
@testable import TatraService

/// One test per factory error, each reached by its documented sandbox input.
@Suite("tatra errors")
struct ErrorTests {
    /// Checks the wire form every tatra error shares.
    func expectError(
        _ error: RPCError?, _ type: TatraErrorType, fatal: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let error else {
            Issue.record("expected \(type), the call succeeded", sourceLocation: sourceLocation)
            return
        }
        #expect(error.code == type.code, sourceLocation: sourceLocation)
        #expect(error.message == type.message, sourceLocation: sourceLocation)
        #expect(error.data?["type"] == .string(type.rawValue), sourceLocation: sourceLocation)
        #expect(error.data?["fatal"] == .bool(fatal), sourceLocation: sourceLocation)
        #expect(error.data?["status"]?.stringValue != nil, sourceLocation: sourceLocation)
    }

    @Test("generalError: magic amount 90.01, failNextCall, unknown payment id")
    func general() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        let error = await client.error("tatra.executePayment", payment("90.01"))
        expectError(error, .general, fatal: true)
        #expect(error?.data?["title"] == "Something went wrong")
        #expect(error?.data?["message"]?.stringValue?.isEmpty == false)
        try fixture.failNext("tatra.fetchSetupData", "general")
        expectError(await client.error("tatra.setup"), .general, fatal: true)
        #expect(try await client.call("tatra.fetchSetupData")["isActivated"] == .bool(true))
        let unknown = await client.error("tatra.resubmitPayment", ["paymentId": "TB-999999"])
        expectError(unknown, .general, fatal: true)
        #expect(unknown?.data?["status"] == "NOT_FOUND")
    }

    @Test("authRequiredError: balance and IBAN before authorize and after it expires")
    func authRequired() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        let error = await client.error("tatra.getIban")
        expectError(error, .authRequired, fatal: false)
        #expect(error?.data?["showConditions"] == .bool(true))
        #expect(error?.data?["title"] == "Enter your PIN")
        _ = try await client.call("tatra.authorize", ["pincode": "1234"])
        #expect(try await client.call("tatra.getIban") == "SK9711000000002926123456")
        fixture.clock.advance(by: 299)
        #expect(try await client.call("tatra.fetchBalance")["balance"] == "1523.47")
        fixture.clock.advance(by: 1)
        let expired = await client.error("tatra.fetchBalance")
        expectError(expired, .authRequired, fatal: false)
        #expect(expired?.data?["showConditions"] == .bool(false))
    }

    @Test("authorization lasts 300 s of real time whatever the wall clock does: steps of hours neither end nor extend it")
    func authorizationIgnoresWallClockSteps() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        _ = try await client.call("tatra.authorize", ["pincode": "1234"])
        fixture.clock.clocks.jumpWall(by: 3600)
        #expect(try await client.call("tatra.fetchBalance")["balance"] == "1523.47")
        fixture.clock.clocks.jumpWall(by: -2 * 3600)
        fixture.clock.advance(by: 299)
        #expect(try await client.call("tatra.getIban") == "SK9711000000002926123456")
        fixture.clock.advance(by: 1)
        expectError(await client.error("tatra.fetchBalance"), .authRequired, fatal: false)
    }

    @Test(
        "executePaymentError: reference or phone breaking the setup rules, declined amount 90.04",
        arguments: [
            payment("10.00", reference: "<script>"),
            payment("10.00", reference: String(repeating: "a", count: 141)),
            payment("10.00", phone: "+420900123456"),
            payment("10.00", phone: "0900123456"),
            payment("90.04"),
        ])
    func executePayment(_ params: JSONValue) async throws {
        let client = try await TatraFixture().connect()
        expectError(await client.error("tatra.executePayment", params), .executePayment, fatal: false)
    }

    @Test("a reference of exactly the maximum length with diacritics is accepted")
    func referenceAtLimit() async throws {
        let client = try await TatraFixture().connect()
        let reference = "Ďakujem za obed, " + String(repeating: "x", count: 140 - 17)
        #expect(reference.utf16.count == 140)
        #expect(try await client.call("tatra.executePayment", payment("10.00", reference: reference)).stringValue != nil)
        #expect(try await client.call("tatra.executePayment", payment("10.00", reference: nil)).stringValue != nil)
    }

    @Test(
        "amountLimitError: below the minimum, above the maximum, more than two decimals",
        arguments: ["0.00", "0.009", "5000.01", "-1", "12.505", "999999999999999999"])
    func amountLimit(_ amount: String) async throws {
        let client = try await TatraFixture().connect()
        let error = await client.error("tatra.executePayment", payment(amount))
        expectError(error, .amountLimit, fatal: false)
        #expect(error?.data?["status"] == "OUT_OF_RANGE")
    }

    @Test("an amount beyond 18 significant digits is invalid params naming /amount, not a rounded amount")
    func amountBeyondEighteenDigits() async throws {
        let client = try await TatraFixture().connect()
        let error = await client.error("tatra.executePayment", payment("99999999999999999999.99"))
        #expect(error?.code == .invalidParams)
        guard case .array(let violations)? = error?.data?["violations"] else {
            Issue.record("no violations in \(String(describing: error))")
            return
        }
        #expect(violations.first?["pointer"] == "/amount")
    }

    @Test("the limits themselves are accepted", arguments: ["0.01", "5000.00", "5000"])
    func amountAtLimits(_ amount: String) async throws {
        let client = try await TatraFixture().connect()
        #expect(try await client.call("tatra.executePayment", payment(amount)).stringValue?.hasPrefix("Pay ") == true)
    }

    @Test("an amount given as a JSON number is invalid params, never a float")
    func amountAsNumber() async throws {
        let client = try await TatraFixture().connect()
        let params: JSONValue = ["amount": .number("12.5"), "contact": ["fullName": "Jana", "phones": ["+421900123456"]]]
        #expect(await client.error("tatra.executePayment", params)?.code == .invalidParams)
    }

    @Test("sameRecipientError: the owner's own phone")
    func sameRecipient() async throws {
        let client = try await TatraFixture().connect()
        expectError(
            await client.error("tatra.executePayment", payment("10.00", phone: "+421900000001")),
            .sameRecipient, fatal: false)
    }

    @Test("serviceUnavailableError: magic amount 90.02 and failNextCall")
    func serviceUnavailable() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        expectError(await client.error("tatra.executePayment", payment("90.02")), .serviceUnavailable, fatal: true)
        try fixture.failNext("tatra.getIban", "serviceUnavailable")
        expectError(await client.error("tatra.getIban"), .serviceUnavailable, fatal: true)
        // Consumed: the next call is back to normal (authorization required).
        expectError(await client.error("tatra.getIban"), .authRequired, fatal: false)
    }

    @Test("networkError: magic amount 90.03 and failNextCall")
    func network() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        expectError(await client.error("tatra.executePayment", payment("90.03")), .network, fatal: false)
        try fixture.failNext("tatra.fetchTopContacts", "network")
        expectError(await client.error("getTopContacts"), .network, fatal: false)
    }

    @Test("wrongPinError: wrong PINs block the application at the limit, even for the right PIN")
    func wrongPin() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        for _ in 1..<fixture.sandbox.wrongPinLimit {
            let error = await client.error("tatra.authorize", ["pincode": "1111"])
            expectError(error, .wrongPin, fatal: false)
            #expect(error?.data?["applicationBlocked"] == .bool(false))
            #expect(error?.data?["title"] == "Wrong PIN")
        }
        let blocked = await client.error("tatra.authorize", ["pincode": "1111"])
        expectError(blocked, .wrongPin, fatal: true)
        #expect(blocked?.data?["applicationBlocked"] == .bool(true))
        let right = await client.error("tatra.authorize", ["pincode": "1234"])
        expectError(right, .wrongPin, fatal: true)
        #expect(right?.data?["applicationBlocked"] == .bool(true))
        _ = try await client.call("tatra.executePayment", benchPayment)
        #expect(await client.error("tatra.authorizePayment", ["pincode": "1234"])?.data?["applicationBlocked"] == .bool(true))
        // Only the sandbox reset unblocks.
        _ = try await client.call("sandbox.tatra.resetProfile")
        #expect(try await client.call("tatra.authorize", ["pincode": "1234"]) == .null)
    }

    @Test("a malformed PIN is invalid params and is not counted as a wrong PIN")
    func malformedPin() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        for _ in 0..<5 {
            #expect(await client.error("tatra.authorize", ["pincode": "12ab"])?.code == .invalidParams)
        }
        #expect(try await client.call("tatra.authorize", ["pincode": "1234"]) == .null)
    }

    @Test("a right PIN resets the wrong-PIN counter")
    func rightPinResetsCounter() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        for _ in 0..<3 {
            for _ in 1..<fixture.sandbox.wrongPinLimit {
                #expect(await client.error("tatra.authorize", ["pincode": "1111"])?.data?["applicationBlocked"] == .bool(false))
            }
            #expect(try await client.call("tatra.authorize", ["pincode": "1234"]) == .null)
        }
    }

    @Test("the blocked application and the wrong-PIN counter survive a restart, per profile")
    func blockedAcrossRestart() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        _ = try await client.call("rpc.hello", ["profile": "alice"])
        #expect(await client.error("tatra.authorize", ["pincode": "1111"]) != nil)
        try await fixture.restart()
        let again = fixture.connect()
        _ = try await again.call("rpc.hello", ["profile": "alice"])
        #expect(await again.error("tatra.authorize", ["pincode": "1111"])?.data?["applicationBlocked"] == .bool(false))
        #expect(await again.error("tatra.authorize", ["pincode": "1111"])?.data?["applicationBlocked"] == .bool(true))
        try await fixture.restart()
        let third = fixture.connect()
        _ = try await third.call("rpc.hello", ["profile": "alice"])
        #expect(await third.error("tatra.authorize", ["pincode": "1234"])?.data?["applicationBlocked"] == .bool(true))
        // Another profile is not blocked.
        let bob = fixture.connect()
        _ = try await bob.call("rpc.hello", ["profile": "bob"])
        #expect(try await bob.call("tatra.authorize", ["pincode": "1234"]) == .null)
    }

    @Test("the authorization is kept per profile across a restart")
    func authorizationAcrossRestart() async throws {
        let fixture = try await TatraFixture()
        _ = try await fixture.connect().call("tatra.authorize", ["pincode": "1234"])
        try await fixture.restart()
        #expect(try await fixture.connect().call("tatra.getIban") == "SK9711000000002926123456")
    }

    @Test("bankTempOOSError: magic amount 90.05, then resubmitPayment completes it")
    func bankTempOOS() async throws {
        let client = try await TatraFixture().connect()
        _ = try await client.call("tatra.onFlowStart")
        _ = try await client.call("tatra.executePayment", payment("90.05"))
        let error = await client.error("tatra.authorizePayment", ["pincode": "1234"])
        expectError(error, .bankTempOOS, fatal: false)
        let paymentId = try #require(error?.data?["paymentId"]?.stringValue)
        #expect(paymentId == "TB-000001")
        let shared = try await client.call("tatra.resubmitPayment", ["paymentId": .string(paymentId)])
        #expect(shared.stringValue?.contains("90.05 EUR") == true)
        #expect(shared.stringValue?.contains(paymentId) == true)
        // Completed: a second resubmission finds nothing.
        expectError(await client.error("tatra.resubmitPayment", ["paymentId": .string(paymentId)]), .general, fatal: true)
    }

    @Test("bankTempOOSError twice: magic amount 90.06 is out of service once more on resubmission")
    func bankTempOOSTwice() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        _ = try await client.call("tatra.executePayment", payment("90.06"))
        let paymentId = try #require(await client.error("tatra.authorizePayment", ["pincode": "1234"])?.data?["paymentId"])
        let again = await client.error("tatra.resubmitPayment", ["paymentId": paymentId])
        expectError(again, .bankTempOOS, fatal: false)
        #expect(again?.data?["paymentId"] == paymentId)
        // Held per profile: resubmitting works after a restart too.
        try await fixture.restart()
        #expect(
            try await fixture.connect().call("tatra.resubmitPayment", ["paymentId": paymentId]).stringValue?.contains("90.06")
                == true)
    }

    @Test("missingContactPermissionError: contacts while the permission is withdrawn")
    func missingContactPermission() async throws {
        let client = try await TatraFixture().connect()
        _ = try await client.call("sandbox.tatra.setContactPermission", ["granted": false])
        for method in ["tatra.fetchTopContacts", "tatra.fetchContacts"] {
            let error = await client.error(method)
            expectError(error, .missingContactPermission, fatal: false)
            #expect(error?.data?["title"] == "Allow access to contacts")
            #expect(error?.data?["subtitle"]?.stringValue?.isEmpty == false)
            #expect(error?.data?["uri"] == "app-settings:")
            #expect(error?.data?["status"] == "PERMISSION_DENIED")
        }
        _ = try await client.call("sandbox.tatra.setContactPermission", ["granted": true])
        #expect(try await client.call("tatra.fetchContacts") != .null)
    }

    @Test("error codes are unique and in tatra's range")
    func codes() {
        let codes = TatraErrorType.allCases.map(\.code.rawValue)
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { (-33099 ... -33000).contains($0) })
        let messages = TatraErrorType.allCases.map(\.message)
        #expect(Set(messages).count == messages.count)
    }
}
