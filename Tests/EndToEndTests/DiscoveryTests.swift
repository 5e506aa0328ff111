import Foundation
import PayRPCJSON
import PayRPCSchema
import PayRPCTestSupport
import Testing

/// `rpc.discover` and `Schemas/`: the same document, valid OpenRPC, every schema valid draft-07.
@Suite struct DiscoveryTests {
    func discoverDocument() async throws -> JSONValue {
        let server = try await SpawnedServer(["serve", "--stdio", "--validate-results"])
        let response = try #require(await server.request("rpc.discover"))
        server.closeInput()
        _ = await server.waitForExit()
        return try #require(response["result"])
    }

    @Test func discoverAnswersTheCommittedDocument() async throws {
        let document = try await discoverDocument()
        let committed = try String(
            contentsOf: SpawnedServer.repositoryRoot.appendingPathComponent("Schemas/openrpc.json"), encoding: .utf8)
        #expect(document.canonicalText == committed)
        #expect(document["info"]?["version"] == "0.1.0")
    }

    /// The naming rule, over whatever services the binary serves: every part after a service
    /// prefix (`executePayment` of `tatra.executePayment`, `getBalance` of `tatra.getBalance`)
    /// that belongs to one method only is an alias of that method, and answers.
    @Test func everyUniqueMethodNameIsABareAlias() async throws {
        let document = try await discoverDocument()
        guard case .array(let methods)? = document["methods"] else {
            Issue.record("no methods")
            return
        }
        var names: [String: [String]] = [:]
        for method in methods {
            guard let name = method["name"]?.stringValue else { continue }
            var all = [name]
            if case .array(let aliases)? = method["x-aliases"] { all += aliases.compactMap(\.stringValue) }
            names[name] = all
        }
        let service = names.keys.filter { !$0.hasPrefix("rpc.") && !$0.hasPrefix("sandbox.") && !$0.hasPrefix("$/") }
        var owners: [String: Set<String>] = [:]
        for method in service {
            for name in names[method] ?? [] {
                let parts = name.split(separator: ".")
                if parts.count == 2 { owners[String(parts[1]), default: []].insert(method) }
            }
        }
        #expect(owners.count > 10)
        for (bare, methods) in owners where methods.count == 1 {
            let method = methods.first!
            #expect(names[method]?.contains(bare) == true, "\(method) lacks its bare alias \(bare)")
        }
        // A notification's other spelling is listed beside it (sent under its name only).
        guard case .array(let notifications)? = document["x-notifications"] else {
            Issue.record("no notifications")
            return
        }
        let failed = notifications.first { $0["name"] == "dotpay.paymentHistory.didFailedToUpdatePaymentSummary" }
        #expect(failed?["x-aliases"] == ["dotpay.paymentHistory.didFailToUpdatePaymentSummary"])
        // And they answer, as their methods do.
        let server = try await SpawnedServer(["serve", "--stdio"])
        #expect(try #require(await server.request("getIban"))["error"]?["data"]?["type"] == "authRequired")
        #expect(try #require(await server.request("getBalance"))["error"]?["data"]?["type"] == "authRequired")
        #expect(
            try #require(
                await server.request(
                    "executePayment",
                    [
                        "amount": "1.00", "recepient": ["fullName": "Jana", "phone": "+421900123456"],
                    ]))["result"]?.stringValue != nil)
        server.closeInput()
        _ = await server.waitForExit()
    }

    @Test func discoverIsValidOpenRPC() async throws {
        let metaSchema = try OpenRPCMetaSchema.compile(
            testdataDirectory: try SharedTestData.directory(containing: "openrpc/openrpc-meta-schema.json"))
        let document = try await discoverDocument()
        let tape = try JSONTape(string: document.jsonText)
        let violations = metaSchema.validate(tape.root)
        #expect(violations.isEmpty, "\(violations.prefix(10))")
        // The check has teeth: a method without params and a document without info are refused.
        let broken = try JSONTape(string: #"{"openrpc":"1.2.6","methods":[{"name":"m"}]}"#)
        #expect(!metaSchema.validate(broken.root).isEmpty)
    }

    @Test func everyCommittedSchemaIsValidDraft07AndCompiles() throws {
        let root = SpawnedServer.repositoryRoot.appendingPathComponent("Schemas")
        let metaSchema = try CompiledSchema(["$ref": "http://json-schema.org/draft-07/schema#"])
        var checked = 0
        for folder in ["models", "methods"] {
            let directory = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".json") {
                let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
                let tape = try JSONTape(string: text)
                #expect(metaSchema.validate(tape.root).isEmpty, "\(folder)/\(name) is not a draft-07 schema")
                if folder == "models" { _ = try CompiledSchema(JSONValue(tape.root)) }
                checked += 1
            }
        }
        #expect(checked > 10)
    }
}
