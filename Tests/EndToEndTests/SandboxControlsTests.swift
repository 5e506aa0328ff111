import Foundation
import PayRPCJSON
import PayRPCSandbox
import Testing

/// The sandbox controls every service shares, through the spawned binary: the test clock (kept
/// across a restart), seeds, injected failures, and idempotency retention on the profile's clock.
@Suite struct SandboxControlsTests {
    static func dataDirectory(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-\(name)-\(UUID().uuidString)")
    }

    @Test func theClockMovesOnlyForwardAndSurvivesARestart() async throws {
        let data = Self.dataDirectory("clock")
        let first = try await SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        let before = try #require(await first.request("sandbox.clock.get")?["result"])
        #expect(before["offsetSeconds"] == 0)
        let advanced = try #require(await first.request("sandbox.clock.advance", ["seconds": 3600])?["result"])
        #expect(advanced["offsetSeconds"] == 3600)
        let time = try #require(advanced["time"]?.stringValue.flatMap(RFC3339.parse))
        let real = try #require(advanced["realTime"]?.stringValue.flatMap(RFC3339.parse))
        #expect(abs(time.timeIntervalSince(real) - 3600) < 0.01)
        // Backwards is refused with the reason; negative seconds break the schema.
        let backwards = await first.request("sandbox.clock.set", ["time": "2001-01-01T00:00:00Z"])?["error"]
        #expect(backwards?["code"] == -32602)
        #expect(backwards?["data"]?["detail"]?.stringValue?.contains("only moves forward") == true)
        let negative = await first.request("sandbox.clock.advance", ["seconds": -1])?["error"]
        #expect(negative?["data"]?["violations"]?.arrayValue?.first?["pointer"] == "/seconds")
        // Another profile keeps real time.
        _ = await first.request("rpc.hello", ["profile": "other"])
        #expect(await first.request("sandbox.clock.get")?["result"]?["offsetSeconds"] == 0)
        first.closeInput()
        #expect(await first.waitForExit() == 0)

        let second = try await SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        #expect(await second.request("sandbox.clock.get")?["result"]?["offsetSeconds"] == 3600)
        // sandbox.reset returns the profile to real time.
        #expect(await second.request("sandbox.reset")?["result"] == .null)
        #expect(await second.request("sandbox.clock.get")?["result"]?["offsetSeconds"] == 0)
        second.closeInput()
        #expect(await second.waitForExit() == 0)
    }

    /// Issue 28.19: the description's own example (the method and the error name) arms a failure;
    /// its example was `generalError`, which tatra.fetchSetupData refused.
    @Test func failNextTakesTheExamplesItsDescriptionGives() async throws {
        let server = try await SpawnedServer(["serve", "--stdio"], dataDirectory: Self.dataDirectory("failnext-example"))
        let methods = try #require(await server.request("rpc.discover")?["result"]?["methods"]?.arrayValue)
        let failNext = try #require(methods.first { $0["name"] == "sandbox.failNext" })
        let params = try #require(failNext["params"]?.arrayValue)
        func example(_ name: String) throws -> JSONValue {
            try #require(params.first { $0["name"]?.stringValue == name }?["schema"]?["examples"]?.arrayValue?.first)
        }
        let method = try example("method"), error = try example("error")
        let name = try #require(method.stringValue)
        let armed = try #require(await server.request("sandbox.failNext", ["method": method, "error": error])?["result"])
        #expect(armed["method"] == method)
        let failed = try #require(await server.request(name)?["error"])
        #expect(failed["data"]?["type"] == error)
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    @Test func failNextInjectsADeclaredErrorWithTheCallersOwnTexts() async throws {
        let server = try await SpawnedServer(["serve", "--stdio"], dataDirectory: Self.dataDirectory("failnext"))
        let data: JSONValue = [
            "type": "general", "status": "UNAVAILABLE", "fatal": true, "title": "Banka hlási",
            "message": "Skúste neskôr",
        ]
        let armed = try #require(
            await server.request(
                "sandbox.failNext",
                [
                    "method": "fetchSetupData", "code": -33000, "data": data, "count": 2,
                ])?["result"])
        #expect(armed["method"] == "tatra.fetchSetupData")
        #expect(armed["armed"] == 2)
        for id in ["a", "b"] {
            let error = await server.request("tatra.setup", nil, id: .string(id))?["error"]
            #expect(error?["code"] == -33000)
            #expect(error?["data"]?["title"] == "Banka hlási")
            #expect(error?["data"]?["message"] == "Skúste neskôr")
        }
        // Consumed: the third call runs.
        #expect(await server.request("tatra.fetchSetupData", nil, id: "c")?["result"]?["isActivated"] == true)

        // An error the method does not declare is refused, listing the ones it does.
        let undeclared = await server.request("sandbox.failNext", ["method": "tatra.fetchSetupData", "code": -33007])?["error"]
        #expect(undeclared?["code"] == -32602)
        let message = undeclared?["data"]?["violations"]?.arrayValue?.first?["message"]?.stringValue ?? ""
        #expect(message.contains("-33000") && message.contains("-33006"))
        // Data that breaks the error's data schema is refused with pointers under /data.
        let broken = await server.request(
            "sandbox.failNext",
            [
                "method": "tatra.fetchSetupData", "code": -33000,
                "data": ["fatal": "yes"],
            ])?["error"]
        let pointers = broken?["data"]?["violations"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } ?? []
        #expect(pointers.contains("/data/fatal"))
        // An unknown method.
        let unknown = await server.request("sandbox.failNext", ["method": "nobody.knows", "code": 1])?["error"]
        #expect(unknown?["data"]?["violations"]?.arrayValue?.first?["pointer"] == "/method")
        // Failures belong to the profile that armed them.
        _ = await server.request("sandbox.failNext", ["method": "tatra.fetchSetupData", "code": -33000, "data": data])
        _ = await server.request("rpc.hello", ["profile": "bystander"])
        #expect(await server.request("tatra.fetchSetupData")?["result"] != nil)
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    @Test func idempotencyRetentionIsMeasuredOnTheProfilesClock() async throws {
        let server = try await SpawnedServer(["serve", "--stdio"], dataDirectory: Self.dataDirectory("retention"))
        let params: JSONValue = [
            "amount": "3.00", "currency": "GBP", "reference": "retained",
            "_meta": ["idempotencyKey": "retention-1"],
        ]
        let first = try #require(await server.request("pbba.submitPaymentRequest", params)?["result"])
        #expect(await server.request("pbba.submitPaymentRequest", params, id: "2")?["result"] == first)
        // A day and a second later on the sandbox clock, the key is forgotten: a new request.
        _ = await server.request("sandbox.clock.advance", ["seconds": 86401])
        let later = try #require(await server.request("pbba.submitPaymentRequest", params, id: "3")?["result"])
        #expect(later["secureToken"] != first["secureToken"])
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    @Test func aSeedIsEchoedAndRefusedOutsideTheSandbox() async throws {
        let seeded = try await SpawnedServer(["serve", "--stdio", "--seed", "7"], dataDirectory: Self.dataDirectory("seed"))
        #expect(await seeded.request("rpc.hello")?["result"]?["seed"] == 7)
        #expect(await seeded.request("rpc.hello", ["seed": 99], id: "2")?["result"]?["seed"] == 99)
        seeded.closeInput()
        #expect(await seeded.waitForExit() == 0)

        let live = try await SpawnedServer(["serve", "--stdio", "--no-sandbox"], dataDirectory: Self.dataDirectory("live"))
        #expect(await live.request("rpc.hello", ["seed": 1])?["error"]?["code"] == -32006)
        #expect(await live.request("sandbox.clock.get", nil, id: "2")?["error"]?["code"] == -32006)
        live.closeInput()
        #expect(await live.waitForExit() == 0)
    }
}

extension JSONValue {
    /// The elements, when this is an array.
    var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
