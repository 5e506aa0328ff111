import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCTestSupport
import Testing
@testable import PBBAService

extension PBBAServiceTests {
    /// The custom button layouts and the error pop-up's recommended lengths.
    @Suite struct LayoutsAndErrorPopup {
        @Test(
            "Each custom UX type describes the views the document gives it",
            arguments: [
                ("none", ["pbbaLogo"], "PBBACustomButtonTypeNone", false),
                ("moreAbout", ["pbbaLogo", "moreAboutLink"], "PBBACustomButtonTypeMoreAbout", true),
                ("bankLogos", ["pbbaLogo", "bankLogos"], "PBBACustomButtonTypeBankLogos", false),
                (
                    "moreAboutAndBankLogos", ["pbbaLogo", "moreAboutLink", "bankLogos"],
                    "PBBACustomButtonTypeMoreAboutAndBankLogos", true
                ),
            ])
        func layouts(type: String, kinds: [String], enumValue: String, hasMoreAbout: Bool) async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let layout = try await app.call("pbba.getCustomUXConfigurations", ["width": 200, "type": .string(type)])
                #expect(layout["iosEnumValue"] == .string(enumValue))
                #expect(layout["fixedSizeSubviews"] == .bool(true))
                #expect(layout["minimumWidth"]?.jsonText == "200" || layout["minimumWidth"]?.jsonText == "200.0")
                let components = try #require(layout["components"]?.arrayValue)
                #expect(components.compactMap { $0["kind"]?.stringValue } == kinds)
                for component in components where component["kind"] == "bankLogos" {
                    #expect(component["displayed"] == .bool(false))
                }
                #expect((layout["moreAbout"] != nil) == hasMoreAbout)
            }
        }

        @Test("The width is echoed, and the alias of the iOS selector works")
        func width() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let layout = try await app.call(
                    "getCustomUXConfigurationsWithWidth", ["width": .number("320.5"), "type": "moreAbout"])
                #expect(layout["width"]?.jsonText == "320.5")
                #expect(layout["moreAbout"]?["steps"]?.arrayValue?.count == 3)
                #expect(layout["warnings"] == [])
            }
        }

        @Test("A width under 200 is served with the document's warning, as the library still returns a view")
        func narrowWidth() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let layout = try await app.call("pbba.getCustomUXConfigurations", ["width": 199, "type": "moreAbout"])
                #expect(layout["width"]?.jsonText == "199")
                let warning = try #require(layout["warnings"]?.arrayValue?.first)
                #expect(warning["field"] == "width")
                #expect(warning["minimum"]?.jsonText == "200")
                #expect(warning["message"]?.stringValue?.contains("may not appear correctly") == true)
                #expect(layout["components"]?.arrayValue?.count == 2)
                let exact = try await app.call("pbba.getCustomUXConfigurations", ["width": 200, "type": "none"])
                #expect(exact["warnings"] == [])
            }
        }

        @Test("Strings past the recommended lengths (5, 25, 75) come back as warnings")
        func lengthWarnings() async throws {
            try await PBBATestEnvironment.run { environment in
                let app = environment.harness.connect()
                let long = try await app.call(
                    "pbba.showPBBAErrorPopup",
                    [
                        "errorCode": "123456",
                        "errorTitle": .string(String(repeating: "t", count: 26)),
                        "errorMessage": .string(String(repeating: "m", count: 76)),
                    ])
                let warnings = try #require(long["warnings"]?.arrayValue)
                #expect(warnings.compactMap { $0["field"]?.stringValue } == ["errorCode", "errorTitle", "errorMessage"])
                #expect(warnings.compactMap { $0["recommendedMaximum"]?.intValue } == [5, 25, 75])
                #expect(warnings.compactMap { $0["length"]?.intValue } == [6, 26, 76])

                let fitting = try await app.call(
                    "showPBBAErrorPopup",
                    [
                        "errorCode": "12345",
                        "errorTitle": .string(String(repeating: "t", count: 25)),
                        "errorMessage": .string(String(repeating: "m", count: 75)),
                    ])
                #expect(fitting["warnings"] == [])
                #expect(fitting["errorCode"] == "12345")
                // The sample code passes no error code.
                let noCode = try await app.call("pbba.showPBBAErrorPopup", ["errorTitle": "Error", "errorMessage": "Failed."])
                #expect(noCode["errorCode"] == nil)
                #expect(noCode["warnings"] == [])
            }
        }
    }

    /// The library's decision and the generated secrets, without the engine.
    @Suite struct Units {
        @Test(
            "The decision table of showPBBAPopup",
            arguments: [
                (0, false, PopupAction.showECommPopup, false), (0, true, .showECommPopup, true),
                (1, false, .showMCommPopup, false), (1, true, .openBankingApp, false),
                (3, true, .openBankingApp, false), (3, false, .showMCommPopup, false),
            ])
        func decision(bankApps: Int, remembered: Bool, action: PopupAction, clears: Bool) {
            let decision = PopupDecision.decide(bankApps: bankApps, remembered: remembered)
            #expect(decision.action == action)
            #expect(decision.clearRemembered == clears)
        }

        /// The streams of one profile of fresh, unseeded controls (the system's generator).
        struct Streams: PBBARandomSource {
            let controls = SandboxControls()
            func randomString(_ stream: String, length: Int, alphabet: String) -> String {
                controls.string(profile: "default", stream: stream, length: length, alphabet: alphabet)
            }
        }

        @Test("Codes have six characters from the unambiguous alphabet")
        func codes() {
            let forbidden = Set("0O1IL")
            let streams = Streams()
            var seen = Set<String>()
            for _ in 0..<2000 {
                let brn = SecureTokenGenerator.brn(streams)
                #expect(brn.count == 6)
                #expect(brn.allSatisfy { !forbidden.contains($0) && ($0.isUppercase || $0.isNumber) })
                seen.insert(brn)
            }
            #expect(seen.count > 1990)
            #expect(SecureTokenGenerator.brnAlphabet.count == 31)
        }

        @Test("secureTokens carry 160 random bits")
        func tokens() {
            let streams = Streams()
            let tokens = (0..<200).map { _ in SecureTokenGenerator.secureToken(streams) }
            #expect(Set(tokens).count == 200)
            #expect(tokens.allSatisfy { $0.count == 40 && $0.allSatisfy(\.isHexDigit) })
        }
    }

    /// What `rpc.discover` publishes about the service.
    @Suite struct Discovery {
        @Test("Every notification is published with a schema and listed by the methods that cause it")
        func notifications() async throws {
            try await PBBATestEnvironment.run { environment in
                let router = environment.harness.engine.router
                let published = Set(router.notifications.map(\.name))
                for name in [
                    "pbba.paymentStatusChanged", "pbba.popupDidExpire", "pbba.popupDidCloseByUser",
                    "pbba.popupRetryPaymentRequest",
                ] {
                    #expect(published.contains(name), "\(name) is not published")
                }
                let show = try #require(router.method(named: "pbba.showPBBAPopup"))
                #expect(
                    Set(show.notifications) == [
                        "pbba.paymentStatusChanged", "pbba.popupDidExpire",
                        "pbba.popupDidCloseByUser",
                    ])
                let errorPopup = try #require(router.method(named: "pbba.showPBBAErrorPopup"))
                #expect(errorPopup.notifications.contains("pbba.popupRetryPaymentRequest"))
                let document = try await environment.harness.connect().call("rpc.discover").jsonText
                #expect(document.contains("pbba.popupDidExpire"))
                #expect(document.contains("com.zapp.bankapp.remembered"))
            }
        }

        @Test(
            "Every method of the pbba table is served, with its bare-name alias",
            arguments: [
                "isCFIAppAvailable", "showPBBAPopup", "showPBBAErrorPopup", "openBankingApp",
                "getCustomUXConfigurations", "submitPaymentRequest", "getPaymentStatus",
            ])
        func aliases(method: String) async throws {
            try await PBBATestEnvironment.run { environment in
                let descriptor = try #require(environment.harness.engine.router.method(named: "pbba." + method))
                #expect(descriptor.aliases.contains(method))
                #expect(!descriptor.summary.isEmpty)
            }
        }

        @Test("Errors are published with their data schema and unique codes")
        func errors() async throws {
            try await PBBATestEnvironment.run { environment in
                let methods = environment.harness.engine.router.methods.filter {
                    $0.name.hasPrefix("pbba.") || $0.name.hasPrefix("sandbox.pbba.")
                }
                #expect(methods.count == 17)
                var messages: [Int: String] = [:]
                for method in methods {
                    for error in method.errors {
                        #expect((-33199 ... -33100).contains(error.code))
                        #expect(error.dataSchema != nil)
                        if let known = messages[error.code] { #expect(known == error.message) }
                        messages[error.code] = error.message
                    }
                }
                #expect(Set(messages.values).count == messages.count)
                #expect(messages.count == PBBAErrorKind.allCases.count)
                #expect(messages.count == 12)
            }
        }
    }
}
