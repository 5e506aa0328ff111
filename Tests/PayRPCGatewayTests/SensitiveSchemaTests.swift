import Foundation
import Logging
import PayRPCCore
import PayRPCGateway
import PayRPCJSON
import PayRPCSchema
import Testing

/// Every secret the gateway carries is declared: every method's params and result, every
/// declared error's data and every notification's payload are walked, and a member whose name
/// looks like a secret (``SensitiveName``: a PIN, a security code, a card number, a token, a
/// secret, a password) must be marked `x-sensitive` or be in the allow-list below with the reason
/// it is not one. The masks the journal uses are made from these marks.
@Suite struct SensitiveSchemaTests {
    /// Members whose names look secret and are not, by JSON Pointer, each with why.
    static let allowList: [String: String] = [
        "/definitions/dotpay.SetTreatsCvvAsPasswordParams/properties/treatsCvvAsPassword":
            "a boolean setting (whether the SDK's form hides the CVV like a password), not a CVV",
        "/definitions/dotpay.OneClickSettings/properties/treatsCvvAsPassword":
            "the same boolean setting, as dotpay.getSettings answers it",
        "/definitions/northstar.ConfigureResult/properties/accessTokenSet":
            "a boolean: whether a token is configured, never the token itself",
    ]

    static func router() throws -> (Router, URL) {
        let configuration = try ServiceCatalogTests.configuration()
        let router = try SchemaExport.describingRouter(configuration: configuration, logger: ServiceCatalogTests.quiet())
        return (router, configuration.dataDirectory)
    }

    /// Every schema the router publishes: what it is (the method and which part) and its schema
    /// with the definitions it refers to.
    static func roots(_ router: Router) -> [(name: String, schema: JSONValue, definitions: SchemaDefinitions)] {
        var roots: [(String, JSONValue, SchemaDefinitions)] = []
        for method in router.methods {
            roots.append(("\(method.name) params", method.paramsSchema, method.definitions))
            roots.append(("\(method.name) result", method.resultSchema, method.definitions))
            for error in method.errors {
                if let data = error.dataSchema {
                    roots.append(("\(method.name) error \(error.code) data", data, method.definitions))
                }
            }
        }
        for notification in router.notifications {
            roots.append(("\(notification.name) payload", notification.paramsSchema, notification.definitions))
        }
        return roots
    }

    @Test func everyMemberNamedLikeASecretIsMarkedOrAllowed() throws {
        let (router, directory) = try Self.router()
        defer { try? FileManager.default.removeItem(at: directory) }
        var firstRoot: [SensitiveSchemaAudit.Finding: String] = [:]
        var seen: Set<String> = []
        let roots = Self.roots(router)
        #expect(roots.count > 150)
        for root in roots {
            var audit = SensitiveSchemaAudit(definitions: root.definitions, allowed: Set(Self.allowList.keys))
            audit.audit(root.schema)
            for finding in audit.findings where firstRoot[finding] == nil { firstRoot[finding] = root.name }
            seen.formUnion(audit.allowedSeen)
        }
        for (finding, root) in firstRoot.sorted(by: { $0.key.pointer < $1.key.pointer }) {
            Issue.record("\(root): \(finding.pointer): \(finding.problem)")
        }
        for stale in Set(Self.allowList.keys).subtracting(seen).sorted() {
            Issue.record("the allow-list names \(stale), which no schema has unmarked any more: remove it")
        }
    }

    @Test func theRoutersMasksMaskWhatTheModelsDeclare() throws {
        let (router, directory) = try Self.router()
        defer { try? FileManager.default.removeItem(at: directory) }
        func masked(_ mask: SensitiveMask, _ text: String) throws -> String { mask.masked(try JSONValue(parsing: text)).jsonText }
        let executeOrder = try #require(router.method(named: "northstar.executeOrder"))
        #expect(
            try masked(
                executeOrder.paramsMask,
                #"{"orderID": "5O190127TN364715T", "card": {"number": "4032036247327321", "expiry": "2030-11", "securityCode": "123"}}"#
            )
                == #"{"orderID":"5O190127TN364715T","card":{"number":"****7321","expiry":"2030-11","securityCode":"***"}}"#)
        // An alias finds the same descriptor, and the mask is made once.
        let authorize = try #require(router.method(named: "tatra.authorize"))
        #expect(try masked(authorize.paramsMask, #"{"pincode": "1234"}"#) == #"{"pincode":"***"}"#)
        #expect(authorize.paramsMask == authorize.paramsMask)
        let configure = try #require(router.method(named: "northstar.configure"))
        #expect(
            try masked(configure.paramsMask, #"{"clientID": "AY", "accessToken": "A21AA", "clientSecret": "EL"}"#)
                == #"{"clientID":"AY","accessToken":"***","clientSecret":"***"}"#)
        #expect(
            try masked(configure.resultMask, #"{"clientID": "AY", "environment": "sandbox", "accessTokenSet": true}"#)
                == #"{"clientID":"AY","environment":"sandbox","accessTokenSet":true}"#)
        let submit = try #require(router.method(named: "pbba.submitPaymentRequest"))
        #expect(try masked(submit.resultMask, #"{"secureToken": "3f78", "brn": "K7MXQ2"}"#).contains(#""secureToken":"***""#))
        // A method without secrets is not walked at all.
        #expect(try #require(router.method(named: "rpc.health")).resultMask.isEmpty)
        // Notifications by name; an unknown one is masked by name.
        let registered = router.notificationMask(named: "dotpay.didRegisterNewCreditCard")
        #expect(registered == router.notification(named: "dotpay.didRegisterNewCreditCard")?.paramsMask)
        #expect(
            try masked(registered, #"{"card": {"creditCardId": "c1", "maskedNumber": "411111******1111"}}"#)
                == #"{"card":{"creditCardId":"c1","maskedNumber":"****1111"}}"#)
        #expect(router.notification(named: "nobody.sends.this") == nil)
        #expect(router.notificationMask(named: "nobody.sends.this") == .byName)
    }
}
