import Foundation
import JournalService
import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit
import Testing
import PayRPCTestSupport

/// The URL-scheme hand-off, byte for byte as the document gives it.
@Suite("journal hand-off")
struct HandoffTests {
    @Test(
        "bad URLs first: each fixed value, a missing or malformed parameter, another scheme",
        arguments: [
            ("opener://open?Return_Type=5&Payment_Service=010&Transaction_Type=1&Amount=10000&Startup_Mode=1", "Return_Type"),
            ("opener://open?Return_Type=4&Payment_Service=020&Transaction_Type=1&Amount=10000&Startup_Mode=1", "Payment_Service"),
            (
                "opener://open?Return_Type=4&Payment_Service=010&Transaction_Type=2&Amount=10000&Startup_Mode=1",
                "Transaction_Type"
            ),
            ("opener://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10000", "Startup_Mode"),
            ("opener://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10a00&Startup_Mode=1", "Amount"),
            ("opener://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Startup_Mode=1", "Amount"),
            (
                "opener://open?Return_Type=4&Payment_Service=060&Transaction_Type=1&Receive_Agency_Code=12x&Receive_Agency_Name=a&Consignor_Name=b&Consignor_Code=1&Startup_Mode=1",
                "Receive_Agency_Code"
            ),
            (
                "opener://open?Return_Type=4&Payment_Service=060&Transaction_Type=1&Receive_Agency_Code=1&Receive_Agency_Name=a&Consignor_Code=1&Startup_Mode=1",
                "Consignor_Name"
            ),
            (
                "opener://open?Return_Type=4&Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=1&Startup_Mode=1",
                "Return_Type"
            ),
            ("linkPayment://open?Return_Type=4", "scheme"),
            ("opener://close?Return_Type=4", "host"),
        ])
    func badURLs(_ url: String, _ parameter: String) async throws {
        let client = try await JournalFixture(backend: false).connect()
        let error = await client.error("journal.openURL", ["url": .string(url)])
        #expect(error?.code == JournalErrorKind.invalidURL.code)
        #expect(error?.data?["parameter"] == .string(parameter), "\(url)")
    }

    @Test("the document's two examples, byte for byte")
    func documentExamples() async throws {
        let client = try await JournalFixture(backend: false).connect()
        let card = try await client.call("journal.openURL", ["url": .string(DocumentExamples.card)])
        #expect(card["url"] == .string(DocumentExamples.cardOut))
        #expect(card["type"] == "creditCard")
        let account = try await client.call("journal.openURL", ["url": .string(DocumentExamples.account)])
        #expect(account["url"] == .string(DocumentExamples.accountOut))
        #expect(account["type"] == "account")
        // journal.pay builds the same URLs from typed fields.
        #expect(
            try await client.call("journal.pay", ["type": "creditCard", "amount": "10000"])["url"]
                == .string(DocumentExamples.cardOut))
        #expect(
            try await client.call(
                "journal.pay",
                [
                    "type": "account", "receiveAgencyCode": "12345000", "receiveAgencyName": "abc_bank",
                    "consignorName": "special_code",
                    "consignorCode": "123",
                ])["url"] == .string(DocumentExamples.accountOut))
    }

    @Test("names with spaces, &, =, #, + and non-ASCII characters round-trip through the hand-off and the callback")
    func percentEncodingRoundTrips() async throws {
        let client = try await JournalFixture(backend: false).connect()
        let name = "Bank & Co = #1 + ząb 東京"
        let consignor = "a b%c/d?e"
        let url = try await client.call(
            "journal.pay",
            [
                "type": "account", "receiveAgencyCode": "12345000", "receiveAgencyName": .string(name),
                "consignorName": .string(consignor),
                "consignorCode": "123",
            ])["url"]
        let text = try #require(url?.stringValue)
        #expect(text.hasSuffix("#opener://") && !text.contains(" ") && text.components(separatedBy: "#").count == 2)
        let callback = try await client.call("sandbox.journal.completePayment", ["url": url ?? .null])
        let entry = try await client.call("journal.handleCallback", ["url": callback["callbackURL"] ?? .null])
        #expect(entry["parameters"]?["Receive_Agency_Name"] == .string(name))
        #expect(entry["parameters"]?["Consignor_Name"] == .string(consignor))
        #expect(entry["type"] == "account")
    }

    @Test("pay: cash needs whole yen; account fields only on account payments")
    func payRules() async throws {
        let client = try await JournalFixture(backend: false).connect()
        #expect(
            await client.error("journal.pay", ["type": "cash", "amount": "10.50"])?.code == JournalErrorKind.invalidPayment.code)
        #expect(await client.error("journal.pay", ["type": "cash"])?.code == JournalErrorKind.invalidPayment.code)
        #expect(
            await client.error("journal.pay", ["type": "creditCard", "amount": "100", "consignorCode": "1"])?.code
                == JournalErrorKind.invalidPayment.code)
        #expect(
            await client.error("journal.pay", ["type": "account", "receiveAgencyCode": "1"])?.code
                == JournalErrorKind.invalidPayment.code)
        #expect(await client.error("journal.pay", ["type": "cash", "amount": 100])?.code == .invalidParams)
        #expect(
            await client.error(
                "journal.pay",
                [
                    "type": "account", "receiveAgencyCode": "12a", "receiveAgencyName": "a", "consignorName": "b",
                    "consignorCode": "1",
                ])?.code == .invalidParams)
        #expect(
            try await client.call("journal.pay", ["type": "creditCard", "amount": "10000.00"])["url"]
                == .string(DocumentExamples.cardOut))
    }
}
