import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCStore
import PayRPCTestSupport
import Testing
@testable import TatraService
import PayRPCSQLite

/// Tatra's per-profile state is a generated model now; a data directory written by the version
/// that mapped it by hand must open with every counter and flag intact.
@Suite("tatra state written by the previous version")
struct StateMigrationTests {
    /// The document exactly as the hand-written mapping wrote it (`paid` a decimal string,
    /// `authorizedUntil` RFC 3339, no `activated`).
    static func previousVersionDocument(authorizedUntil: Date) -> JSONValue {
        [
            "wrongPinAttempts": 2, "blocked": false, "everAuthorized": true, "paymentSequence": 7, "paid": "42.5",
            "held": [
                [
                    "paymentId": "TB-000007", "amount": "90.05", "recipientName": "Jana Nováková", "phone": "+421900123456",
                    "outOfServiceLeft": 0, "reference": "Lunch",
                ]
            ],
            "authorizedUntil": .string(RFC3339.format(authorizedUntil)), "contactPermission": false,
        ]
    }

    @Test("counters, authorization, permission, paid total and held payments survive")
    func previousDocumentOpens() async throws {
        let fixture = try await TatraFixture()
        let until = fixture.clock.now.addingTimeInterval(120)
        try await fixture.store.put(
            profile: "default", namespace: "tatra", key: "profile",
            value: Self.previousVersionDocument(authorizedUntil: until))
        try await fixture.restart()
        let client = fixture.connect()
        // Still authorized (120 s left): balance is the sandbox's minus the 42.50 paid.
        #expect(try await client.call("tatra.fetchBalance")["balance"] == "1480.97")
        #expect(await client.error("tatra.fetchContacts")?.data?["type"] == "missingContactPermission")
        // The held payment completes, and the sequence continues from 7.
        #expect(try await client.call("tatra.resubmitPayment", ["paymentId": "TB-000007"]).stringValue?.contains("90.05") == true)
        // Two wrong PINs were counted: the next one blocks.
        let third = await client.error("tatra.authorize", ["pincode": "0000"])
        #expect(third?.data?["applicationBlocked"] == .bool(true))
        let state = try #require(
            try await fixture.store.get(
                TatraProfileState.self, profile: "default",
                namespace: "tatra", key: "profile"))
        #expect(state.blocked && state.paymentSequence == 7 && state.paid == Amount("132.55") && state.held.isEmpty)
    }

    @Test("a blocked application stays blocked across the change")
    func blockedFlagSurvives() async throws {
        let fixture = try await TatraFixture()
        let document: JSONValue = [
            "wrongPinAttempts": 3, "blocked": true, "everAuthorized": false, "paymentSequence": 0, "paid": "0",
            "held": [],
        ]
        try await fixture.store.put(profile: "default", namespace: "tatra", key: "profile", value: document)
        try await fixture.restart()
        let error = await fixture.connect().error("tatra.authorize", ["pincode": "1234"])
        #expect(error?.data?["applicationBlocked"] == .bool(true))
    }

    @Test("the stored text is the codec's own bytes, read back without a JSONValue")
    func storedTextIsTheCodecs() async throws {
        let fixture = try await TatraFixture()
        var state = TatraProfileState()
        state.wrongPinAttempts = 1
        state.paid = Amount("12.50")!
        try await fixture.store.put(state, profile: "p", namespace: "tatra", key: "profile")
        let text = try #require(try await fixture.store.get(StoredText.self, profile: "p", namespace: "tatra", key: "profile"))
            .text
        var writer = JSONWriter()
        state.encode(to: &writer)
        #expect(text == writer.text)
        #expect(text.contains(#""paid":"12.50""#))
        try await fixture.store.put(StoredText(#"{"blocked":"yes"}"#), profile: "p", namespace: "tatra", key: "other")
        await #expect(throws: StoreError.self) {
            _ = try await fixture.store.get(TatraProfileState.self, profile: "p", namespace: "tatra", key: "other")
        }
    }
}
