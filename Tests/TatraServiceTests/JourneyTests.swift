import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCTestSupport
import Testing
@testable import TatraService

@Suite("tatra user journey")
struct JourneyTests {
    @Test("setup, top contacts, payment, wrong then right PIN, balance after authorization, IBAN")
    func journey() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()

        #expect(try await client.call("tatra.onFlowStart") == .null)

        let setup = try await client.call("tatra.fetchSetupData")
        #expect(setup["isActivated"] == .bool(true))
        #expect(setup["minTransactionAmount"] == "0.01")
        #expect(setup["maxTransactionAmount"] == "5000.00")
        #expect(setup["descriptionValidationLength"] == .int(140))
        #expect(setup["phoneValidationRegex"] == #"^\+421[0-9]{9}$"#)
        #expect(setup["redirectionUri"] == "https://sandbox.tatrabanka.example/paykey/return")

        let top = try await client.call("tatra.fetchTopContacts")
        guard case .array(let contacts) = top else {
            Issue.record("not an array: \(top)")
            return
        }
        #expect(contacts.count == 3)
        #expect(contacts.first?["fullName"] == "Jana Nováková")
        #expect(contacts.first?["phones"] == ["+421900123456"])

        let confirmation = try await client.call("tatra.executePayment", benchPayment)
        #expect(confirmation == "Pay 12.50 EUR to Jana Nováková (+421900123456)?")

        let wrong = try #require(await client.error("tatra.authorizePayment", ["pincode": "0000"]))
        #expect(wrong.code.rawValue == -33007)
        #expect(wrong.data?["applicationBlocked"] == .bool(false))
        #expect(wrong.data?["fatal"] == .bool(false))

        let shared = try await client.call("tatra.authorizePayment", ["pincode": "1234"])
        #expect(shared == "I sent you 12.50 EUR with Tatra banka PayKey (payment TB-000001). Invoice 2026-001 for services")

        let authRequired = try #require(await client.error("tatra.fetchBalance"))
        #expect(authRequired.code.rawValue == -33001)
        #expect(authRequired.message == "Authorization required")
        #expect(authRequired.data?["type"] == "authRequired")
        #expect(authRequired.data?["status"] == "UNAUTHENTICATED")
        #expect(authRequired.data?["showConditions"] == .bool(true))

        #expect(try await client.call("tatra.authorize", ["pincode": "1234"]) == .null)

        let balance = try await client.call("tatra.fetchBalance")
        #expect(balance["balance"] == "1510.97")
        #expect(
            balance["dueDate"].flatMap { $0.stringValue }.flatMap(RFC3339.parse)
                == RFC3339.parse("2026-12-31T00:00:00Z"))

        #expect(try await client.call("tatra.getIban") == "SK9711000000002926123456")
        #expect(try await client.call("tatra.onFlowStop") == .null)
    }

    @Test("every alias reaches its method")
    func aliases() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        #expect(try await client.call("onFlowStart") == .null)
        #expect(try await client.call("tatra.setup")["isActivated"] == .bool(true))
        #expect(try await client.call("fetchSetupData")["isActivated"] == .bool(true))
        let topByAlias = try await client.call("getTopContacts")
        #expect(try await client.call("tatra.getTopContacts") == topByAlias)
        guard case .array(let all) = try await client.call("tatra.getContacts") else {
            Issue.record("not an array")
            return
        }
        #expect(all.count == 6)
        #expect(await client.error("tatra.getBalance")?.code.rawValue == -33001)
        #expect(try await client.call("onFlowStop") == .null)
    }

    @Test("rpc.discover lists every tatra method with its aliases and errors")
    func discovery() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        let document = try await client.call("rpc.discover")
        guard case .array(let methods)? = document["methods"] else {
            Issue.record("no methods")
            return
        }
        let byName = Dictionary(
            methods.compactMap { method in method["name"]?.stringValue.map { ($0, method) } },
            uniquingKeysWith: { first, _ in first })
        for name in [
            "tatra.onFlowStart", "tatra.onFlowStop", "tatra.fetchSetupData", "tatra.fetchTopContacts",
            "tatra.fetchContacts", "tatra.executePayment", "tatra.authorizePayment", "tatra.resubmitPayment",
            "tatra.fetchBalance", "tatra.getIban", "tatra.authorize",
        ] {
            #expect(byName[name] != nil, "\(name) missing from rpc.discover")
        }
        let execute = try #require(byName["tatra.executePayment"])
        guard case .array(let errors)? = execute["errors"] else {
            Issue.record("no errors: \(execute)")
            return
        }
        let codes = Set(errors.compactMap { $0["code"].flatMap { Int($0.jsonText) } })
        #expect(codes.isSuperset(of: [-33000, -33002, -33003, -33004, -33005, -33006]))
    }

    @Test("the sandbox.tatra helpers are refused when the server does not run in sandbox mode")
    func helpersNeedSandboxMode() async throws {
        let fixture = try await TatraFixture(sandboxMode: false)
        let client = fixture.connect()
        #expect(await client.error("sandbox.tatra.setContactPermission", ["granted": false])?.code == .sandboxOnly)
        #expect(await client.error("sandbox.tatra.setActivated", ["activated": false])?.code == .sandboxOnly)
        #expect(await client.error("sandbox.tatra.resetProfile")?.code == .sandboxOnly)
        #expect(try await client.call("tatra.executePayment", benchPayment).stringValue?.hasPrefix("Pay 12.50") == true)
    }
}
