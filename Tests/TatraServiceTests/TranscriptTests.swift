import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing
@testable import TatraService

/// The session transcript of `docs/tatra.md`, byte for byte: requests as a client writes them,
/// responses as the server writes them.
@Suite("tatra wire transcript")
struct TranscriptTests {
    static let exchanges: [(request: String, response: String?)] = [
        (
            #"{"jsonrpc":"2.0","id":1,"method":"tatra.onFlowStart"}"#,
            #"{"jsonrpc":"2.0","id":1,"result":null}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":2,"method":"tatra.fetchSetupData"}"#,
            #"{"jsonrpc":"2.0","id":2,"result":{"isActivated":true,"descriptionValidationRegex":"^[\\p{L}\\p{N} .,:;/()?!'+\\-]*$","descriptionValidationLength":140,"phoneValidationRegex":"^\\+421[0-9]{9}$","minTransactionAmount":"0.01","maxTransactionAmount":"5000.00","makePaymentValues":{"minValue":"0.01","maxValue":"5000.00"},"redirectionUri":"https://sandbox.tatrabanka.example/paykey/return"}}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":3,"method":"getTopContacts"}"#,
            #"{"jsonrpc":"2.0","id":3,"result":[{"fullName":"Jana Nováková","phones":["+421900123456"],"image":"https://sandbox.tatrabanka.example/avatars/jana.png"},{"fullName":"Peter Horváth","phones":["+421905111222"]},{"fullName":"Mária Kováčová","phones":["+421911333444","+421244556677"],"image":"https://sandbox.tatrabanka.example/avatars/maria.png"}]}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":4,"method":"tatra.executePayment","params":{"amount":"12.50","contact":{"fullName":"Jana Nováková","phones":["+421900123456"]},"reference":"Invoice 2026-001 for services"}}"#,
            #"{"jsonrpc":"2.0","id":4,"result":"Pay 12.50 EUR to Jana Nováková (+421900123456)?"}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":5,"method":"tatra.authorizePayment","params":{"pincode":"0000"}}"#,
            #"{"jsonrpc":"2.0","id":5,"error":{"code":-33007,"message":"Wrong PIN","data":{"type":"wrongPin","status":"UNAUTHENTICATED","fatal":false,"title":"Wrong PIN","applicationBlocked":false}}}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":6,"method":"tatra.authorizePayment","params":{"pincode":"1234"}}"#,
            #"{"jsonrpc":"2.0","id":6,"result":"I sent you 12.50 EUR with Tatra banka PayKey (payment TB-000001). Invoice 2026-001 for services"}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":7,"method":"tatra.getBalance"}"#,
            #"{"jsonrpc":"2.0","id":7,"error":{"code":-33001,"message":"Authorization required","data":{"type":"authRequired","status":"UNAUTHENTICATED","fatal":false,"title":"Enter your PIN","showConditions":true}}}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":8,"method":"tatra.authorize","params":{"pincode":"1234"}}"#,
            #"{"jsonrpc":"2.0","id":8,"result":null}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":9,"method":"tatra.getBalance"}"#,
            #"{"jsonrpc":"2.0","id":9,"result":{"balance":"1510.97","dueDate":"2026-12-31T00:00:00Z"}}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":10,"method":"tatra.getIban"}"#,
            #"{"jsonrpc":"2.0","id":10,"result":"SK9711000000002926123456"}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":11,"method":"tatra.executePayment","params":{"amount":"5000.01","contact":{"fullName":"Jana Nováková","phones":["+421900123456"]}}}"#,
            #"{"jsonrpc":"2.0","id":11,"error":{"code":-33003,"message":"Amount limit","data":{"type":"amountLimit","status":"OUT_OF_RANGE","fatal":false,"title":"Amount out of limits","message":"The amount must be from 0.01 to 5000.00 EUR."}}}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":12,"method":"tatra.executePayment","params":{"amount":"90.05","contact":{"fullName":"Peter Horváth","phones":["+421905111222"]},"reference":"Rent"}}"#,
            #"{"jsonrpc":"2.0","id":12,"result":"Pay 90.05 EUR to Peter Horváth (+421905111222)?"}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":13,"method":"tatra.authorizePayment","params":{"pincode":"1234"}}"#,
            #"{"jsonrpc":"2.0","id":13,"error":{"code":-33008,"message":"Bank temporarily out of service","data":{"type":"bankTempOOS","status":"UNAVAILABLE","fatal":false,"paymentId":"TB-000002"}}}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":14,"method":"tatra.resubmitPayment","params":{"paymentId":"TB-000002"}}"#,
            #"{"jsonrpc":"2.0","id":14,"result":"I sent you 90.05 EUR with Tatra banka PayKey (payment TB-000002). Rent"}"#
        ),
        (#"{"jsonrpc":"2.0","method":"tatra.onFlowStop"}"#, nil),
        (
            #"{"jsonrpc":"2.0","id":15,"method":"tatra.authorizePayment","params":{"pincode":"1234"}}"#,
            #"{"jsonrpc":"2.0","id":15,"error":{"code":-33002,"message":"Execute payment error","data":{"type":"executePayment","status":"FAILED_PRECONDITION","fatal":false,"title":"Payment not possible","message":"No payment awaits authorization in the current flow: execute the payment first (a payment executed in another or a stopped flow cannot be authorized)."}}}"#
        ),
    ]

    @Test("the documented session, byte for byte")
    func transcript() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        let connection = client.connection
        for (request, expected) in Self.exchanges {
            connection.send(request)
            guard let expected else { continue }
            let line = await connection.nextLine()
            #expect(line == expected, "answer to \(request)")
        }
        withExtendedLifetime(fixture) {}
    }
}
