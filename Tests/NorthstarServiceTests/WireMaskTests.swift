import Foundation
import PayRPCJSON
import PayRPCServiceKit
import Testing

@testable import NorthstarService

/// The Orders v2 wire models declare their secrets, so an outgoing exchange is recorded without
/// them: the card number kept to its last four and the security code masked in a request body,
/// the access token masked in the token endpoint's answer.
@Suite struct WireMaskTests {
    let url = URL(string: "http://127.0.0.1:1/v2/checkout/orders")!

    static func text(_ bytes: [UInt8]?) -> String { bytes.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    @Test func anOrderBodyKeepsTheCardsLastFour() {
        let body = WireOrder(
            intent: "CAPTURE",
            paymentSource: WirePaymentSource(
                card: WireCard(number: "4032036247327321", expiry: "2030-11", securityCode: "123", name: "A. N.")))
        let request = HTTPRequest("POST", url, json: body, headers: [("Authorization", "Bearer A21AAF")])
        let masked = Self.text(request.maskedBody)
        #expect(masked.contains(#""number":"****7321""#), "\(masked)")
        #expect(masked.contains(#""security_code":"***""#) && masked.contains(#""expiry":"2030-11""#))
        #expect(!masked.contains("4032036247327321") && Self.text(request.body).contains("4032036247327321"))
        #expect(request.headersMasked.last?.value == "***")
    }

    @Test func theTokenAnswerAndAnOrderAnswerAreMaskedByTheirModels() {
        let token = HTTPRequest("POST", url, form: "grant_type=client_credentials").expecting(WireToken.self)
        let issued = HTTPResponse(
            status: 200,
            body: Array(
                #"{"scope": "https://uri.paypal.com/services/payments", "access_token": "A21AAF", "expires_in": 32400}"#.utf8))
        #expect(
            Self.text(token.maskedResponseBody(issued))
                == #"{"scope":"https://uri.paypal.com/services/payments","access_token":"***","expires_in":32400}"#)
        let order = HTTPRequest("GET", url).expecting(WireOrder.self)
        let answered = HTTPResponse(
            status: 200,
            body: Array(
                #"{"id": "5O190127TN364715T", "payment_source": {"card": {"last_digits": "7321", "number": "4032036247327321"}}}"#
                    .utf8))
        #expect(
            Self.text(order.maskedResponseBody(answered))
                == #"{"id":"5O190127TN364715T","payment_source":{"card":{"last_digits":"7321","number":"****7321"}}}"#)
    }
}
