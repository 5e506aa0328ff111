import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import Testing
@testable import TatraService
import PayRPCTestSupport

/// What the document says and the service must do as it says: Android's field names, iOS's
/// nested amount values, activation at run time, and time on the profile's sandbox clock.
@Suite("tatra fidelity")
struct FidelityTests {
    @Test("Android's TransactionRequest spelling (recepient, messageForRecipient, TTContact.phone) is accepted")
    func androidFieldNames() async throws {
        let client = try await TatraFixture().connect()
        let android: JSONValue = [
            "amount": "12.50",
            "recepient": ["fullName": "Jana Nováková", "phone": "+421900123456"],
            "messageForRecipient": "Lunch",
        ]
        let ios: JSONValue = [
            "amount": "12.50",
            "contact": ["fullName": "Jana Nováková", "phones": ["+421900123456"]],
            "reference": "Lunch",
        ]
        let fromAndroid = try await client.call("tatra.executePayment", android)
        let fromIOS = try await client.call("tatra.executePayment", ios)
        #expect(fromAndroid == fromIOS)
        #expect(fromAndroid.stringValue?.contains("Jana Nováková") == true)
        // The Android reference is checked by the same rules as the iOS one.
        let long: JSONValue = [
            "amount": "12.50", "recepient": ["fullName": "Jana", "phone": "+421900123456"],
            "messageForRecipient": .string(String(repeating: "x", count: 141)),
        ]
        #expect(await client.error("tatra.executePayment", long)?.data?["type"] == "executePayment")
    }

    @Test(
        "a member and its alias given together, or neither, is invalid params",
        arguments: [
            #"{"amount":"1.00","contact":{"fullName":"J","phones":["+421900123456"]},"recepient":{"fullName":"J","phone":"+421900123456"}}"#,
            #"{"amount":"1.00","contact":{"fullName":"J","phones":["+421900123456"],"phone":"+421900123456"}}"#,
            #"{"amount":"1.00","contact":{"fullName":"J","phones":["+421900123456"]},"reference":"a","messageForRecipient":"b"}"#,
            #"{"amount":"1.00"}"#,
            #"{"amount":"1.00","recepient":{"fullName":"J","phone":["+421900123456"]}}"#,
        ])
    func aliasConflicts(_ params: String) async throws {
        let client = try await TatraFixture().connect()
        let error = await client.error("tatra.executePayment", try JSONValue(parsing: params))
        #expect(error?.code == .invalidParams, "\(params)")
    }

    @Test("the schema names the Android spellings")
    func schemaSaysSo() throws {
        let contact = Contact.schemaDefinition
        #expect(contact["properties"]?["phone"]?["type"] == "string")
        #expect(contact["properties"]?["phone"]?["description"]?.stringValue?.contains("`phones`") == true)
        #expect(contact["properties"]?["icon"] != nil)
        let params = ExecutePayment.Params.schemaDefinition
        #expect(params["properties"]?["recepient"] != nil)
        #expect(params["properties"]?["messageForRecipient"] != nil)
    }

    @Test("the setup carries iOS's makePaymentValues alongside the flat limits")
    func makePaymentValues() async throws {
        let setup = try await TatraFixture().connect().call("tatra.fetchSetupData")
        #expect(setup["makePaymentValues"]?["minValue"] == setup["minTransactionAmount"])
        #expect(setup["makePaymentValues"]?["maxValue"] == setup["maxTransactionAmount"])
        #expect(setup["makePaymentValues"]?["maxValue"] == "5000.00")
    }

    @Test("sandbox.tatra.setActivated turns isActivated off and on, per profile, until resetProfile")
    func setActivated() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        let other = fixture.connect()
        _ = try await other.call("rpc.hello", ["profile": "other"])
        #expect(try await client.call("tatra.fetchSetupData")["isActivated"] == .bool(true))
        _ = try await client.call("sandbox.tatra.setActivated", ["activated": false])
        #expect(try await client.call("tatra.fetchSetupData")["isActivated"] == .bool(false))
        #expect(try await other.call("tatra.fetchSetupData")["isActivated"] == .bool(true))
        try await fixture.restart()
        let again = fixture.connect()
        #expect(try await again.call("tatra.fetchSetupData")["isActivated"] == .bool(false))
        _ = try await again.call("sandbox.tatra.resetProfile")
        #expect(try await again.call("tatra.fetchSetupData")["isActivated"] == .bool(true))
        #expect(await again.error("sandbox.tatra.setActivated", ["activated": "no"])?.code == .invalidParams)
    }

    @Test("the authorization expires on the profile's sandbox clock: one advance, no sleep")
    func authorizationOnTheSandboxClock() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        _ = try await client.call("tatra.authorize", ["pincode": "1234"])
        #expect(try await client.call("tatra.getIban").stringValue != nil)
        try fixture.harness.sandbox.advance(profile: "default", by: 301)
        #expect(await client.error("tatra.getIban")?.data?["type"] == "authRequired")
        // Another profile's clock did not move: its fresh authorization holds.
        let other = fixture.connect()
        _ = try await other.call("rpc.hello", ["profile": "other"])
        _ = try await other.call("tatra.authorize", ["pincode": "1234"])
        #expect(try await other.call("tatra.getIban").stringValue != nil)
    }

    @Test("an injected failure carries the caller's own title and message, as the bank side may create errors")
    func injectedFailureWithOwnTexts() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        let (name, error) = try fixture.harness.engine.router.injectedError(
            for: FailureRequest(
                method: "getIban", errorName: "network", code: nil, message: nil,
                data: ["title": "Bank offline", "message": "Try again at 6 am"]))
        fixture.harness.sandbox.arm(profile: "default", method: name, failure: InjectedFailure(error: error), count: 1)
        let failed = await client.error("tatra.getIban")
        #expect(failed?.code == TatraErrorType.network.code)
        #expect(failed?.data?["title"] == "Bank offline")
        #expect(failed?.data?["message"] == "Try again at 6 am")
        #expect(failed?.data?["type"] == "network")
    }
}
