import Foundation
import PayRPCJSON
import Testing

/// The Tatra PayKey user journey, and every error of its factory, against a spawned
/// `payrpc serve --stdio` (results validated against their schemas by the server itself).
@Suite struct TatraJourneyTests {
    static let jana: JSONValue = ["fullName": "Jana Nováková", "phones": ["+421900123456"]]

    func server(_ data: URL? = nil) async throws -> SpawnedServer {
        try await SpawnedServer(["serve", "--stdio", "--validate-results"], dataDirectory: data)
    }

    /// Calls and returns the result, recording the error if there is one.
    func result(
        _ server: SpawnedServer, _ method: String, _ params: JSONValue? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> JSONValue? {
        let response = await server.request(method, params, id: .string(UUID().uuidString))
        #expect(response?["error"] == nil, "\(method): \(String(describing: response))", sourceLocation: sourceLocation)
        return response?["result"]
    }

    /// Calls and returns the error's data type and code.
    func error(_ server: SpawnedServer, _ method: String, _ params: JSONValue? = nil) async -> (Int?, JSONValue?) {
        let response = await server.request(method, params, id: .string(UUID().uuidString))
        let code = response?["error"]?["code"].flatMap { Int($0.jsonText) }
        return (code, response?["error"]?["data"])
    }

    @Test func theUserJourney() async throws {
        let server = try await server()
        #expect(await result(server, "tatra.onFlowStart") == .null)
        let setup = try #require(await result(server, "tatra.fetchSetupData"))
        #expect(setup["isActivated"] == true)
        #expect(setup["minTransactionAmount"] == "0.01")
        guard case .array(let contacts)? = await result(server, "tatra.fetchTopContacts") else {
            Issue.record("no contacts")
            return
        }
        #expect(contacts.first?["fullName"] == "Jana Nováková")
        let confirmation = await result(
            server, "tatra.executePayment",
            ["amount": "12.50", "contact": Self.jana, "reference": "Invoice 2026-001"])
        #expect(confirmation?.stringValue?.contains("12.50") == true)
        let (wrongCode, wrongData) = await error(server, "tatra.authorizePayment", ["pincode": "0000"])
        #expect(wrongCode == -33007)
        #expect(wrongData?["type"] == "wrongPin")
        #expect(wrongData?["applicationBlocked"] == false)
        let shared = await result(server, "tatra.authorizePayment", ["pincode": "1234"])
        #expect(shared?.stringValue?.contains("TB-000001") == true)
        let (authCode, authData) = await error(server, "tatra.fetchBalance")
        #expect(authCode == -33001)
        #expect(authData?["type"] == "authRequired")
        #expect(await result(server, "tatra.authorize", ["pincode": "1234"]) == .null)
        let balance = await result(server, "tatra.fetchBalance")
        #expect(balance?["balance"] == "1510.97")
        #expect(await result(server, "tatra.getIban") == "SK9711000000002926123456")
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    @Test(arguments: [
        ("amountLimit", -33003, ["amount": "5000.01", "contact": jana] as JSONValue),
        ("sameRecipient", -33004, ["amount": "1.00", "contact": ["fullName": "Me", "phones": ["+421900000001"]]] as JSONValue),
        ("executePayment", -33002, ["amount": "1.00", "contact": jana, "reference": "<script>"] as JSONValue),
        ("general", -33000, ["amount": "90.01", "contact": jana] as JSONValue),
        ("serviceUnavailable", -33005, ["amount": "90.02", "contact": jana] as JSONValue),
        ("network", -33006, ["amount": "90.03", "contact": jana] as JSONValue),
    ])
    func executePaymentErrors(type: String, code: Int, params: JSONValue) async throws {
        let server = try await server()
        let (actual, data) = await error(server, "tatra.executePayment", params)
        #expect(actual == code)
        #expect(data?["type"] == .string(type))
    }

    @Test func bankTempOOSThenResubmit() async throws {
        let server = try await server()
        _ = await result(server, "tatra.executePayment", ["amount": "90.05", "contact": Self.jana])
        let (code, data) = await error(server, "tatra.authorizePayment", ["pincode": "1234"])
        #expect(code == -33008)
        let paymentID = try #require(data?["paymentId"])
        #expect(await result(server, "tatra.resubmitPayment", ["paymentId": paymentID])?.stringValue?.contains("90.05") == true)
    }

    @Test func missingContactPermission() async throws {
        let server = try await server()
        _ = await result(server, "sandbox.tatra.setContactPermission", ["granted": false])
        let (code, data) = await error(server, "tatra.getContacts")
        #expect(code == -33009)
        #expect(data?["type"] == "missingContactPermission")
        #expect(data?["uri"] != nil)
    }

    @Test func blockedApplicationStaysBlockedAcrossRestarts() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-tatra-\(UUID().uuidString)")
        do {
            let server = try await server(data)
            for attempt in 1...3 {
                let (code, details) = await error(server, "tatra.authorize", ["pincode": "9999"])
                #expect(code == -33007)
                #expect(details?["applicationBlocked"] == .bool(attempt == 3))
            }
            server.closeInput()
            #expect(await server.waitForExit() == 0)
        }
        let restarted = try await server(data)
        let (code, details) = await error(restarted, "tatra.authorize", ["pincode": "1234"])
        #expect(code == -33007)
        #expect(details?["applicationBlocked"] == true)
        restarted.closeInput()
        #expect(await restarted.waitForExit() == 0)
    }

    @Test func profilesNeverShareState() async throws {
        let server = try await server()
        #expect(await result(server, "rpc.hello", ["profile": "alice"])?["profile"] == "alice")
        for _ in 1...3 { _ = await error(server, "tatra.authorize", ["pincode": "9999"]) }
        #expect(await error(server, "tatra.authorize", ["pincode": "1234"]).1?["applicationBlocked"] == true)
        // Bob's application is not blocked by Alice's wrong PINs.
        #expect(await result(server, "rpc.hello", ["profile": "bob"])?["profile"] == "bob")
        #expect(await result(server, "tatra.authorize", ["pincode": "1234"]) == .null)
        // A second connection with Alice's profile sees her blocked application.
        let second = try await SpawnedServer(["serve", "--stdio"], dataDirectory: server.dataDirectory)
        server.closeInput()
        _ = await server.waitForExit()
        _ = await result(second, "rpc.hello", ["profile": "alice"])
        #expect(await error(second, "tatra.authorize", ["pincode": "1234"]).1?["applicationBlocked"] == true)
        second.closeInput()
        _ = await second.waitForExit()
    }
}
