import Foundation
import PayRPCJSON
import Testing

/// Bad money through the spawned binary, per service: too many decimals for the currency, an
/// unknown currency where the service takes one, a zero or negative amount. Each answer is the one
/// the services gave before their money checks went through the kit's one check, and must not move.
@Suite struct MoneyInputTests {
    static let jana: JSONValue = ["fullName": "Jana", "phones": ["+421900123456"]]

    /// Sends one request and returns its error (nil for a result).
    func error(_ server: SpawnedServer, _ method: String, _ params: JSONValue) async -> JSONValue? {
        let response = await server.request(method, params, id: .string(UUID().uuidString))
        #expect(response != nil, "\(method): no answer")
        return response?["error"]
    }

    /// An array's first element.
    func first(_ array: JSONValue?) -> JSONValue? {
        guard case .array(let elements)? = array else { return nil }
        return elements.first
    }

    /// The one violation's pointer and message of an invalid-params error.
    func violation(_ error: JSONValue?) -> (pointer: String?, message: String?) {
        let violation = first(error?["data"]?["violations"])
        return (violation?["pointer"]?.stringValue, violation?["message"]?.stringValue)
    }

    @Test func tatraRefusesAmountsOutsideItsCurrencyAndLimits() async throws {
        let server = try await SpawnedServer(["serve", "--stdio", "--ephemeral"])
        _ = await server.request("tatra.onFlowStart")
        let decimals = await error(server, "tatra.executePayment", ["amount": "12.505", "contact": Self.jana])
        #expect(decimals?["code"] == -33003)
        #expect(decimals?["data"]?["message"] == "The amount may have at most two decimals.")
        for amount: JSONValue in ["0", "-1", "0.00", "100000000"] {
            let refused = await error(server, "tatra.executePayment", ["amount": amount, "contact": Self.jana])
            #expect(refused?["code"] == -33003)
            #expect(refused?["data"]?["message"] == "The amount must be from 0.01 to 5000.00 EUR.")
        }
        // Trailing zeros are the same number of cents.
        #expect(await error(server, "tatra.executePayment", ["amount": "12.500", "contact": Self.jana]) == nil)
    }

    @Test func pbbaRefusesAmountsNotAboveZeroOrFinerThanTheCurrency() async throws {
        let server = try await SpawnedServer(["serve", "--stdio", "--ephemeral"])
        for amount: JSONValue in ["0", "-1"] {
            let refused = await error(
                server, "pbba.submitPaymentRequest", ["amount": amount, "currency": "GBP", "reference": "Order"])
            #expect(refused?["code"] == -32602)
            #expect(violation(refused) == ("/amount", "amount must be greater than 0"))
        }
        let lower = await error(server, "pbba.submitPaymentRequest", ["amount": "10", "currency": "gbp", "reference": "Order"])
        #expect(violation(lower).pointer == "/currency")
        // Sub-penny amounts, a decimal yen and a code that is no currency are refused where they are.
        let refused: [(JSONValue, JSONValue, String, String)] = [
            ("10.005", "GBP", "/amount", "GBP takes at most 2 decimal(s)"),
            ("10.5", "JPY", "/amount", "JPY takes at most 0 decimal(s)"),
            ("10", "XYZ", "/currency", "XYZ is not an ISO 4217 currency"),
        ]
        for (amount, currency, pointer, message) in refused {
            for method in ["pbba.submitPaymentRequest", "sandbox.pbba.registerExternalRequest"] {
                var params: JSONValue = ["amount": amount, "currency": currency, "reference": "Order"]
                if method.hasPrefix("sandbox"), case .object(var members) = params {
                    members += [.init("secureToken", "external-1"), .init("brn", "Q4RT7W")]
                    params = .object(members)
                }
                let answer = await error(server, method, params)
                #expect(answer?["code"] == -32602, "\(method) \(amount) \(currency): \(answer?.jsonText ?? "taken")")
                #expect(violation(answer).pointer == pointer, "\(method) \(amount) \(currency)")
                #expect(violation(answer).message == message, "\(method) \(amount) \(currency)")
            }
        }
        // Trailing zeros are the same number of pence.
        #expect(
            await error(server, "pbba.submitPaymentRequest", ["amount": "10.000", "currency": "GBP", "reference": "Order"])
                == nil)
    }

    @Test func journalTakesOnlyWholeYenAboveZero() async throws {
        let server = try await SpawnedServer(["serve", "--stdio", "--ephemeral"])
        for amount: JSONValue in ["100.5", "0", "-1"] {
            let refused = await error(server, "journal.pay", ["type": "cash", "amount": amount])
            #expect(refused?["code"] == -33202)
            #expect(refused?["data"]?["detail"] == "the amount must be whole yen above zero")
            #expect(refused?["data"]?["found"] == amount)
        }
        let missing = await error(server, "journal.pay", ["type": "cash"])
        #expect(missing?["data"]?["detail"] == "the payment needs an amount")
        let whole = await server.request("journal.pay", ["type": "cash", "amount": "100.00"], id: "whole")
        #expect(whole?["result"]?["entry"]?["amount"] == "100")
    }

    @Test func northstarAnswersAsOrdersV2() async throws {
        let server = try await SpawnedServer(["serve", "--stdio", "--ephemeral"])
        let cases: [(String, String, String, String, String)] = [
            ("USD", "10.005", "DECIMAL_PRECISION", "value", "USD takes at most 2 decimal(s)"),
            ("JPY", "10.5", "DECIMAL_PRECISION", "value", "JPY takes at most 0 decimal(s)"),
            ("JPY", "10.00", "DECIMAL_PRECISION", "value", "JPY takes at most 0 decimal(s)"),
            ("XYZ", "10", "CURRENCY_NOT_SUPPORTED", "currencyCode", "XYZ is not an ISO 4217 currency"),
            ("USD", "0", "CANNOT_BE_ZERO_OR_NEGATIVE", "value", "the value must be more than zero"),
            ("USD", "-1", "CANNOT_BE_ZERO_OR_NEGATIVE", "value", "the value must be more than zero"),
        ]
        for (code, value, issue, field, description) in cases {
            let units: JSONValue = [["amount": ["currencyCode": .string(code), "value": .string(value)]]]
            let refused = await error(server, "sandbox.northstar.createOrder", ["intent": "AUTHORIZE", "purchaseUnits": units])
            #expect(refused?["code"] == -33308, "\(code) \(value)")
            let detail = first(refused?["data"]?["details"])
            #expect(detail?["issue"] == JSONValue.string(issue), "\(code) \(value)")
            #expect(detail?["field"] == JSONValue.string("/purchaseUnits/0/amount/\(field)"), "\(code) \(value)")
            #expect(detail?["description"] == JSONValue.string(description), "\(code) \(value)")
        }
        let part: JSONValue = [
            [
                "amount": [
                    "currencyCode": "USD", "value": "10.00",
                    "breakdown": ["itemTotal": ["currencyCode": "USD", "value": "9.999"]],
                ]
            ]
        ]
        let refused = await error(server, "sandbox.northstar.createOrder", ["intent": "AUTHORIZE", "purchaseUnits": part])
        let detail = first(refused?["data"]?["details"])
        #expect(detail?["field"] == "/purchaseUnits/0/amount/breakdown/itemTotal/value")
        #expect(detail?["issue"] == "DECIMAL_PRECISION")
    }

    @Test func dotpayRefusesDecimalsZeroAndCurrenciesItDoesNotTake() async throws {
        let server = try await SpawnedServer(["serve", "--stdio", "--ephemeral"])
        func info(_ amount: String, _ currency: String) -> JSONValue {
            [
                "paymentInfo": [
                    "merchantID": "10000", "amount": .string(amount), "currency": .string(currency), "textDescription": "x",
                ]
            ]
        }
        for amount in ["10.005", "10.000", "0", "-1"] {
            let refused = await error(server, "dotpay.getChannelList", info(amount, "PLN"))
            #expect(refused?["code"] == -32602, "\(amount)")
            #expect(violation(refused) == ("/paymentInfo/amount", "must be more than zero with at most 2 decimals of PLN"))
        }
        for currency in ["XYZ", "JPY"] {
            let refused = await error(server, "dotpay.getChannelList", info("10", currency))
            #expect(refused?["code"] == -33404)
            #expect(refused?["data"]?["detail"] == JSONValue.string("\(currency) is not one of PLN, EUR, USD, GBP, CZK"))
        }
        let paid = await server.request(
            "dotpay.fastPayment",
            [
                "paymentInfo": ["merchantID": "10000", "amount": "15.15", "textDescription": "x"], "paymentChannelId": 73,
                "showingDefaultSummary": true,
            ],
            id: "paid")
        let id = try #require(paid?["result"]?["paymentId"], "\(String(describing: paid))")
        let decimals = await error(server, "sandbox.dotpay.refund", ["paymentId": id, "amount": "1.005"])
        #expect(violation(decimals) == ("/amount", "has more decimals than PLN takes"))
        let zero = await error(server, "sandbox.dotpay.refund", ["paymentId": id, "amount": "0"])
        #expect(violation(zero) == ("/amount", "must be more than zero"))
    }
}
