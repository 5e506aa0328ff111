import Foundation
import PayRPCJSON
import Testing

/// What a newcomer reads first: the violations of invalid params say what is wrong in words
/// (a named format with an example, a member missing under every spelling), and none is longer
/// than 200 characters, checked through the real binary over a corpus of broken params for
/// every method.
@Suite struct ViolationMessageTests {
    static let maximumMessageLength = 200

    /// `data.violations` of an answer, as (pointer, keyword, message).
    static func violations(_ answer: JSONValue?) -> [[String]] {
        guard case .array(let items)? = answer?["error"]?["data"]?["violations"] else { return [] }
        return items.map {
            [$0["pointer"]?.stringValue ?? "?", $0["keyword"]?.stringValue ?? "?", $0["message"]?.stringValue ?? "?"]
        }
    }

    @Test func aBrokenAmountAndAMissingContactReadAsWhatIsWrong() async throws {
        let server = try await SpawnedServer(["serve", "--stdio"])
        let answer = await server.request("tatra.executePayment", ["amount": "x"])
        #expect(answer?["error"]?["code"] == -32602)
        #expect(answer?["error"]?["message"] == "Invalid params")
        #expect(
            Self.violations(answer) == [
                ["/amount", "pattern", #"must be an amount: a decimal string of at most 18 digits, e.g. "12.50""#],
                ["", "required", #"missing required member "contact" (or Android's "recepient")"#],
            ])
        // An amount sent as a number, and a contact in Android's spelling without its phone.
        let android = await server.request(
            "tatra.executePayment", ["amount": .number("12.5"), "recepient": ["fullName": "Jana"]], id: "2")
        #expect(
            Self.violations(android) == [
                ["/amount", "type", #"must be an amount: a decimal string of at most 18 digits, e.g. "12.50" (found number)"#],
                ["/recepient", "required", #"missing required member "phones" (or Android's "phone")"#],
            ])
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    @Test func cardFieldsNameTheirFormats() async throws {
        let server = try await SpawnedServer(["serve", "--stdio"])
        let answer = await server.request(
            "northstar.validate",
            [
                "orderID": "order-1", "card": ["number": "4111 1111 1111 1111", "expiry": "11/30"],
            ])
        #expect(
            Self.violations(answer) == [
                ["/orderID", "pattern", #"must be an Orders v2 ID: 17 capital letters or digits, e.g. "5O190127TN364715T""#],
                ["/card/number", "pattern", #"must be a card number: 12 to 19 digits, without spaces, e.g. "4111111111111111""#],
                ["/card/expiry", "pattern", #"must be a card's expiry month: YYYY-MM, e.g. "2030-11""#],
            ])
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    /// Every method of `Schemas/methods/`, sent params that break it in the ways people do: none,
    /// each member of the wrong kind (a number, a word, a boolean, an array, an object, null, a
    /// string of 600 characters), an unknown member with a long name, too many positions.
    @Test func noMessageIsLongerThan200CharactersForAnyMethod() async throws {
        let methods = try Self.methodSchemas()
        #expect(methods.count > 80)
        let server = try await SpawnedServer(["serve", "--stdio"])
        let wrongValues: [JSONValue] = [
            .number("12.5"), "x", true, [1], ["a": 1], .null, .string(String(repeating: "é", count: 600)),
        ]
        var sent = 0
        var checked = 0
        var tooLong: [String] = []
        for (name, properties) in methods {
            var corpus: [JSONValue] = [
                .object([]), ["zz" + String(repeating: "q", count: 3000): 1], .array(Array(repeating: 1, count: 12)),
            ]
            for property in properties {
                for value in wrongValues { corpus.append(.object([.init(property, value)])) }
            }
            for params in corpus {
                sent += 1
                let answer = await server.request(name, params, id: .string("c\(sent)"))
                #expect(answer != nil, "\(name) did not answer \(params.jsonText.prefix(80))")
                for violation in Self.violations(answer) {
                    checked += 1
                    if violation[2].count > Self.maximumMessageLength {
                        tooLong.append("\(name) \(violation[0]) [\(violation[1])]: \(violation[2].count) characters")
                    }
                }
            }
        }
        #expect(checked > 1000)
        #expect(tooLong.isEmpty, "\(tooLong.joined(separator: "\n"))")
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    /// Each method's name and the member names of its params, from `Schemas/methods/*.json`.
    static func methodSchemas() throws -> [(String, [String])] {
        let folder = SpawnedServer.repositoryRoot.appendingPathComponent("Schemas/methods")
        var methods: [(String, [String])] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".json") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let document = try JSONValue(parsing: text)
            guard let name = document["title"]?.stringValue else { continue }
            var params = document["params"]
            if let reference = params?["$ref"]?.stringValue, let last = reference.split(separator: "/").last {
                params = document["definitions"]?[String(last)]
            }
            var names: [String] = []
            if case .object(let members)? = params?["properties"] { names = members.map(\.name) }
            methods.append((name, names))
        }
        return methods
    }
}
