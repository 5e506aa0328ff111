import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCTestSupport
import Testing
@testable import TatraService

@Suite("tatra flow lifecycle")
struct FlowTests {
    @Test("a payment executed in one flow cannot be authorized in the next one")
    func restartedFlowForgetsPayment() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        client.notify("tatra.onFlowStart")
        _ = try await client.call("tatra.executePayment", benchPayment)
        client.notify("onFlowStart")
        let error = try #require(await client.error("tatra.authorizePayment", ["pincode": "1234"]))
        #expect(error.code.rawValue == -33002)
        #expect(error.data?["status"] == "FAILED_PRECONDITION")
        #expect(error.data?["message"]?.stringValue?.contains("No payment awaits authorization") == true)
    }

    @Test("stopping the flow (as a notification) forgets its payment")
    func stopForgets() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        #expect(try await client.call("tatra.onFlowStart") == .null)
        _ = try await client.call("tatra.executePayment", benchPayment)
        client.notify("tatra.onFlowStop")
        #expect(await client.error("tatra.authorizePayment", ["pincode": "1234"])?.code.rawValue == -33002)
    }

    @Test("a payment executed on one connection cannot be authorized on another")
    func otherConnection() async throws {
        let fixture = try await TatraFixture()
        let first = fixture.connect()
        let second = fixture.connect()
        _ = try await first.call("tatra.onFlowStart")
        _ = try await second.call("tatra.onFlowStart")
        _ = try await first.call("tatra.executePayment", benchPayment)
        #expect(await second.error("tatra.authorizePayment", ["pincode": "1234"])?.code.rawValue == -33002)
        #expect(try await first.call("tatra.authorizePayment", ["pincode": "1234"]).stringValue?.hasPrefix("I sent you") == true)
    }

    @Test("executePayment without onFlowStart starts an implicit flow; authorizing twice pays once")
    func implicitFlow() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        _ = try await client.call("tatra.executePayment", benchPayment)
        #expect(try await client.call("tatra.authorizePayment", ["pincode": "1234"]).stringValue?.contains("TB-000001") == true)
        #expect(await client.error("tatra.authorizePayment", ["pincode": "1234"])?.code.rawValue == -33002)
    }

    @Test("authorizePayment with no flow at all is refused")
    func noFlow() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        #expect(await client.error("tatra.authorizePayment", ["pincode": "1234"])?.code.rawValue == -33002)
    }

    @Test("a wrong PIN keeps the payment awaiting authorization")
    func wrongPinKeepsPayment() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        _ = try await client.call("tatra.onFlowStart")
        _ = try await client.call("tatra.executePayment", payment("20.00"))
        #expect(await client.error("tatra.authorizePayment", ["pincode": "9999"])?.code.rawValue == -33007)
        #expect(try await client.call("tatra.authorizePayment", ["pincode": "1234"]).stringValue?.contains("20.00 EUR") == true)
    }

    @Test("two authorizations sent at once pay the payment once")
    func concurrentAuthorizations() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        _ = try await client.call("tatra.executePayment", benchPayment)
        let connection = client.connection
        connection.send(#"{"jsonrpc":"2.0","id":"a","method":"tatra.authorizePayment","params":{"pincode":"1234"}}"#)
        connection.send(#"{"jsonrpc":"2.0","id":"b","method":"tatra.authorizePayment","params":{"pincode":"1234"}}"#)
        let first = try #require(await connection.response(id: "a"))
        let second = try #require(await connection.response(id: "b"))
        let answers = [first, second]
        #expect(answers.filter { $0["result"] != nil }.count == 1)
        let refused = try #require(answers.first { $0["error"] != nil })
        #expect(refused["error"]?["code"] == .int(-33002))
        _ = try await client.call("tatra.authorize", ["pincode": "1234"])
        #expect(try await client.call("tatra.fetchBalance")["balance"] == "1510.97")
    }
}
