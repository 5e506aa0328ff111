import Foundation
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import Testing

/// What a journal records of an outgoing exchange: headers and bodies with their secrets masked,
/// by the body's model, by the answer's declared model, or by name when neither is known.
@Suite struct HTTPExchangeMaskingTests {
    /// A card body as an Orders v2 request carries it: the number kept to its last four, the
    /// code masked whole (its schema written by hand, as the generator would write it).
    struct CardBody: JSONEncodable, JSONSchemaProvider {
        var number: String
        var securityCode: String
        var expiry: String

        func encode(to writer: inout JSONWriter) {
            JSONValue.object([
                .init(
                    "payment_source",
                    .object([
                        .init(
                            "card",
                            .object([
                                .init("number", .string(number)), .init("security_code", .string(securityCode)),
                                .init("expiry", .string(expiry)),
                            ]))
                    ]))
            ]).encode(to: &writer)
        }

        static var schemaReference: JSONValue { .object([.init("$ref", "#/definitions/test.CardBody")]) }

        static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
            definitions.insert(
                "test.CardBody",
                schema: try! JSONValue(
                    parsing: """
                        {"type": "object", "additionalProperties": false, "properties": {"payment_source": {
                          "type": "object", "additionalProperties": false, "properties": {"card": {
                            "type": "object", "additionalProperties": false, "properties": {
                              "number": {"type": "string", "x-sensitive": "last4"},
                              "security_code": {"type": "string", "x-sensitive": true},
                              "expiry": {"type": "string"}}}}}}}
                        """))
        }
    }

    /// An OAuth2 token answer whose token is declared secret.
    struct TokenAnswer: JSONSchemaProvider {
        static var schemaReference: JSONValue {
            try! JSONValue(
                parsing:
                    #"{"type": "object", "properties": {"access_token": {"type": "string", "x-sensitive": true}, "token_type": {"type": "string"}}}"#
            )
        }
    }

    let url = URL(string: "http://127.0.0.1:1/v2/checkout/orders")!

    static func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    @Test func aJSONBodyIsMaskedByItsModel() {
        let request = HTTPRequest(
            "POST", url, json: CardBody(number: "4032036247327321", securityCode: "123", expiry: "2030-11"),
            headers: [("Authorization", "Bearer A21AAF")])
        #expect(request.bodyMask == SensitiveMask(describing: CardBody.self))
        #expect(
            Self.text(request.maskedBody)
                == #"{"payment_source":{"card":{"number":"****7321","security_code":"***","expiry":"2030-11"}}}"#)
        // The body sent is untouched.
        #expect(Self.text(request.body)?.contains("4032036247327321") == true)
        #expect(request.headersMasked.map(\.value) == ["application/json", "***"])
    }

    @Test func aBodyWithoutAModelIsMaskedByName() {
        let request = HTTPRequest(
            "POST", url, json: ["card_number": "5555555555554444", "pin": "1234", "amount": "10.00"] as [String: String])
        let masked = Self.text(request.maskedBody) ?? ""
        #expect(masked.contains(#""card_number":"****4444""#) && masked.contains(#""pin":"***""#))
        #expect(masked.contains(#""amount":"10.00""#))
        // A request made without a model has the name rule for both ways.
        let plain = HTTPRequest("GET", url)
        #expect(plain.bodyMask == .byName && plain.responseMask == .byName && plain.maskedBody == nil)
    }

    @Test func aFormBodyIsMaskedFieldByField() {
        let request = HTTPRequest(
            "POST", url,
            formFields: [
                ("grant_type", "client_credentials"), ("client_secret", "s3cr3t value"), ("card number", "4111 1111 1111 1111"),
                ("note", "a&b=c"),
            ])
        #expect(
            Self.text(request.maskedBody)
                == "grant_type=client_credentials&client_secret=***&card+number=****1111&note=a%26b%3Dc")
        // A mask from a model names the top-level fields that are secrets.
        let mask = SensitiveMask(
            schema: try! JSONValue(parsing: #"{"properties": {"otp": {"type": "string", "x-sensitive": true}}}"#),
            definitions: SchemaDefinitions())
        let form = Array("otp=123456&id=7&password=x".utf8)
        #expect(
            Self.text(HTTPRequest.maskedBody(form, contentType: "application/x-www-form-urlencoded; charset=utf-8", mask: mask))
                == "otp=***&id=7&password=***")
    }

    @Test func credentialHeadersAreMasked() {
        let headers: [(name: String, value: String)] = [
            ("Authorization", "Basic QUlEOnNlY3JldA=="), ("proxy-authorization", "Basic eA=="), ("Cookie", "session=1"),
            ("Set-Cookie", "session=1"), ("X-API-Key", "k"), ("X-Auth-Token", "t"), ("PayPal-Client-Secret", "s"),
            ("X-Hub-Signature-256", "sha256=ab"), ("Content-Type", "application/json"), ("PayPal-Request-Id", "req-1"),
            ("Idempotency-Key", "key-1"),
        ]
        let masked = HTTPRequest.maskedHeaders(headers)
        #expect(masked.map(\.name) == headers.map(\.name))
        #expect(masked.prefix(8).allSatisfy { $0.value == "***" })
        #expect(masked.suffix(3).map(\.value) == ["application/json", "req-1", "key-1"])
    }

    @Test func theAnswerIsMaskedByItsDeclaredModel() {
        let request = HTTPRequest("POST", url, formFields: [("grant_type", "client_credentials")]).expecting(TokenAnswer.self)
        let answer = HTTPResponse(
            status: 200,
            body: Array(#"{"access_token": "A21AAFtoken", "token_type": "Bearer", "app_id": "APP-1", "nonce": "n"}"#.utf8))
        #expect(
            Self.text(request.maskedResponseBody(answer))
                == #"{"access_token":"***","token_type":"Bearer","app_id":"APP-1","nonce":"n"}"#)
        // Undeclared: the name rule; an error body of another shape still has its secrets masked.
        let plain = HTTPRequest("GET", url)
        let error = HTTPResponse(status: 401, body: Array(#"{"error": "invalid_token", "refresh_token": "r"}"#.utf8))
        #expect(Self.text(plain.maskedResponseBody(error)) == #"{"error":"invalid_token","refresh_token":"***"}"#)
        // A form answer, found without a content type.
        let form = HTTPResponse(status: 200, body: Array("access_token=abc&expires_in=3600".utf8))
        #expect(Self.text(plain.maskedResponseBody(form)) == "access_token=***&expires_in=3600")
        // Text that is neither stays as it is; JSON that does not parse is not shown.
        let page = HTTPResponse(status: 502, body: Array("<html>Bad gateway</html>".utf8))
        #expect(Self.text(plain.maskedResponseBody(page)) == "<html>Bad gateway</html>")
        let cut = HTTPResponse(status: 200, body: Array(#"{"access_token": "A21AA"#.utf8))
        #expect(Self.text(plain.maskedResponseBody(cut)) == "*** (23 bytes that do not parse as JSON)")
        #expect(
            Self.text(plain.maskedResponseBody(cut, contentType: "text/plain")) == #"{"access_token": "A21AA"#)
    }

    @Test func anEmptyMaskLeavesTheBytes() {
        let bytes = Array(#"{"password": "x"}"#.utf8)
        #expect(HTTPRequest.maskedBody(bytes, contentType: "application/json", mask: .none) == bytes)
    }
}
