import PayRPCSchema
import Testing

/// ``SensitiveName``: which member names look like secrets, however they are spelled.
@Suite("Sensitive names")
struct SensitiveNameTests {
    @Test(
        "secrets masked whole",
        arguments: [
            "pin", "PIN", "pincode", "sealedShopPin", "shop_pin", "passcode", "password", "userPassword", "passwd", "cvv",
            "CVV", "cvv2", "cardCVV", "cvc", "securityCode", "security_code", "SECURITY CODE", "token", "accessToken",
            "access_token", "X-Auth-Token", "secureToken", "refresh_tokens", "secret", "clientSecret", "client_secret",
            "apiKey", "api_key", "privateKey", "credentials", "treatsCvvAsPassword", "pinRequired",
        ])
    func whole(_ name: String) {
        #expect(SensitiveName.style(ofMember: name) == .whole, "\(name)")
    }

    @Test(
        "card numbers kept to their last four",
        arguments: ["cardNumber", "card_number", "CardNumber", "cardNumbers", "pan", "PAN", "primary_pan"])
    func lastFour(_ name: String) {
        #expect(SensitiveName.style(ofMember: name) == .last4, "\(name)")
    }

    @Test(
        "names that only look close",
        arguments: [
            "shipping", "opening", "spinner", "company", "japan", "amount", "number", "keyboard", "cardholderName",
            "creditCardId", "lastDigits", "description", "expiry", "monkey",
        ])
    func notSecrets(_ name: String) {
        #expect(SensitiveName.style(ofMember: name) == nil, "\(name)")
    }

    @Test func aNumberInsideACardObject() {
        #expect(SensitiveName.style(ofMember: "number", inObjectNamed: "card") == .last4)
        #expect(SensitiveName.style(ofMember: "number", inObjectNamed: "paymentCard") == .last4)
        #expect(SensitiveName.style(ofMember: "number", inObjectNamed: "credit_card") == .last4)
        #expect(SensitiveName.style(ofMember: "maskedNumber", inObjectNamed: "cards") == .last4)
        #expect(SensitiveName.style(ofMember: "number", inObjectNamed: "relatedOperation") == nil)
        #expect(SensitiveName.style(ofMember: "number", inObjectNamed: "discard") == nil)
    }

    @Test func words() {
        #expect(SensitiveName.words(of: "accessTokenHash") == ["access", "token", "hash"])
        #expect(SensitiveName.words(of: "CVVCode") == ["cvv", "code"])
        #expect(SensitiveName.words(of: "address_line_1") == ["address", "line", "1"])
        #expect(SensitiveName.words(of: "cvv2") == ["cvv2"])
        #expect(SensitiveName.words(of: "X-Api-Key") == ["x", "api", "key"])
        #expect(SensitiveName.words(of: "OAuth2Token") == ["o", "auth2", "token"])
    }
}
