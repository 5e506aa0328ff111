import Foundation
import PayRPCSandbox
import PayRPCTestSupport
import PayRPCJSON
import Testing

/// The `payrpc` subcommands other than `serve`, run as a user runs them.
@Suite struct CommandLineTests {
    /// Runs `payrpc` with `arguments` and standard input `input`; returns status, stdout, stderr.
    func run(
        _ arguments: [String], input: String? = nil, in directory: URL? = nil, environment: [String: String?] = [:]
    ) async throws -> (Int32, String, String) {
        // A spawned server may take long to start while the whole suite starts dozens under a
        // sanitizer at once: calls wait for their answer longer than a user's default 30 s.
        let arguments =
            arguments.first == "call" && !arguments.contains("--timeout") ? arguments + ["--timeout", "600"] : arguments
        let run = try await ChildRun.run(
            SpawnedServer.binary, arguments, input: input, in: directory, environment: environment, timeout: 700)
        return (run.status ?? -1, run.output, run.errors)
    }

    func temporaryDataDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-cli-\(UUID().uuidString)").path
    }

    @Test(arguments: [
        [], ["serve"], ["call"], ["calls"], ["schemas"], ["validate"], ["data"], ["data", "export"], ["data", "reset"],
    ])
    func everyCommandHasHelp(command: [String]) async throws {
        let (status, out, _) = try await run(command + ["--help"])
        #expect(status == 0)
        #expect(out.contains("USAGE"))
    }

    @Test func callSpawnsAServerAndPrintsThePrettyResult() async throws {
        let (status, out, _) = try await run(["call", "rpc.health", "--spawn", "--data", temporaryDataDirectory()])
        #expect(status == 0)
        #expect(out == "{\n  \"status\": \"SERVING\"\n}\n")
    }

    @Test func callSpawnsAnEphemeralServerUnlessGivenADataDirectory() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment: [String: String?] = [
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
        ]
        let (status, out, _) = try await run(["call", "rpc.health", "--spawn"], environment: environment)
        #expect(status == 0)
        #expect(out == "{\n  \"status\": \"SERVING\"\n}\n")
        #expect(
            !FileManager.default.fileExists(atPath: home.appendingPathComponent("data/payrpc").path),
            "the default data directory stays untouched")
        let kept = home.appendingPathComponent("kept")
        #expect(try await run(["call", "rpc.health", "--spawn", "--data", kept.path], environment: environment).0 == 0)
        #expect(FileManager.default.fileExists(atPath: kept.appendingPathComponent("payrpc.sqlite").path))
    }

    @Test func callPrintsAnErrorToStderrWithExitCodeOne() async throws {
        let (status, out, err) = try await run(["call", "no.such.method", "{}", "--spawn", "--data", temporaryDataDirectory()])
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(err.contains("-32601"))
    }

    @Test func callToAnAddressNobodyListensOnGivesUpAfterTheConnectTimeout() async throws {
        // Port 1 on loopback: nothing listens there, and nobody may start a server there.
        let (status, out, err) = try await run(["call", "rpc.health", "--tcp", "127.0.0.1:1", "--connect-timeout", "0.2"])
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(err == "payrpc call: cannot connect to 127.0.0.1:1: Connection refused\n")
    }

    @Test func callWaitsForAServerStartedAMomentAgo() async throws {
        // The call starts first and retries while nothing listens; the server comes up on a
        // Unix socket after it, and the call is answered.
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent(
            "payrpc-late-\(UUID().uuidString.prefix(8)).sock"
        ).path
        async let call = run(["call", "rpc.health", "--unix", socket, "--connect-timeout", "60"])
        let server = try await SpawnedServer(["serve", "--unix", socket])
        let (status, out, _) = try await call
        #expect(status == 0)
        #expect(out == "{\n  \"status\": \"SERVING\"\n}\n")
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test(arguments: ["yesterday", "2026-11-25", "2026-13-01T00:00:00Z"])
    func aFrozenClockThatIsNotAnRFC3339TimeIsAUsageError(time: String) async throws {
        let (status, _, err) = try await run(["serve", "--stdio", "--frozen-clock", time], input: "")
        #expect(status == 64)
        #expect(err.contains("--frozen-clock takes an RFC 3339 time such as 2026-11-25T10:40:00Z, got \(time)"))
    }

    @Test(arguments: ["0", "-1", "abc", "nan", "86401"])
    func aWebAPITimeoutThatIsNotAPositiveNumberOfSecondsIsAUsageError(seconds: String) async throws {
        let (status, _, err) = try await run(["serve", "--stdio", "--web-api-timeout", seconds], input: "")
        #expect(status == 64)
        #expect(err.contains("--web-api-timeout"), "\(err)")
    }

    @Test func theWebAPITimeoutIsHowLongATryWaitsForAnAnswer() async throws {
        // The built-in sandbox Web API hangs as long as the timeout: four hangs (the first try
        // and its three retries) leave the entry waiting, with the timeout in its last error.
        let hang = #"{"outcome":"hang"}"#
        let requests = [
            #"{"jsonrpc":"2.0","id":1,"method":"sandbox.journal.setNextAnswers","params":{"answers":[\#(hang),\#(hang),\#(hang),\#(hang)]}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"journal.pay","params":{"type":"cash","amount":"100"}}"#,
        ]
        let (status, out, _) = try await run(
            ["serve", "--stdio", "--data", temporaryDataDirectory(), "--web-api-timeout", "0.25"],
            input: requests.joined(separator: "\n") + "\n")
        #expect(status == 0)
        let answers = try out.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        let delivery = answers.last?["result"]?["entry"]?["delivery"]
        #expect(delivery?["status"] == "waiting" && delivery?["attempts"] == 4, "\(out)")
        #expect(delivery?["lastError"] == "/payments/: network error: no answer within 0.25 s", "\(out)")
    }

    @Test func aFrozenClockStandsStillUntilATesterAdvancesIt() async throws {
        let requests = [
            #"{"jsonrpc":"2.0","id":1,"method":"sandbox.clock.get"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"sandbox.clock.get"}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"sandbox.clock.advance","params":{"seconds":90}}"#,
        ]
        let (status, out, _) = try await run(
            ["serve", "--stdio", "--data", temporaryDataDirectory(), "--frozen-clock", "2026-11-25T10:40:00Z"],
            input: requests.joined(separator: "\n") + "\n")
        #expect(status == 0)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                #"{"jsonrpc":"2.0","id":1,"result":{"time":"2026-11-25T10:40:00Z","realTime":"2026-11-25T10:40:00Z","offsetSeconds":0}}"#,
                #"{"jsonrpc":"2.0","id":2,"result":{"time":"2026-11-25T10:40:00Z","realTime":"2026-11-25T10:40:00Z","offsetSeconds":0}}"#,
                #"{"jsonrpc":"2.0","id":3,"result":{"time":"2026-11-25T10:41:30Z","realTime":"2026-11-25T10:40:00Z","offsetSeconds":90}}"#,
            ])
    }

    @Test func callRejectsParamsThatAreNotJSON() async throws {
        let (status, _, err) = try await run(["call", "rpc.health", "{nope", "--spawn"])
        #expect(status != 0)
        #expect(err.contains("not JSON"))
    }

    @Test func committedSchemasMatchTheDeclarations() async throws {
        let root = SpawnedServer.repositoryRoot
        let (status, out, err) = try await run(["schemas", "--check", "--out", "Schemas"], in: root)
        #expect(status == 0, "Schemas/ is out of date; run: swift run payrpc schemas --out Schemas\n\(out)\(err)")
    }

    @Test func schemasAreDeterministic() async throws {
        let first = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-schemas-\(UUID().uuidString)")
        let second = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-schemas-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        #expect(try await run(["schemas", "--out", first.path]).0 == 0)
        #expect(try await run(["schemas", "--out", second.path]).0 == 0)
        #expect(try await run(["schemas", "--check", "--out", second.path]).0 == 0)
        let document = try String(contentsOf: first.appendingPathComponent("openrpc.json"), encoding: .utf8)
        #expect(document.hasSuffix("}\n"))
        #expect(FileManager.default.fileExists(atPath: first.appendingPathComponent("methods/rpc.health.json").path))
        #expect(FileManager.default.fileExists(atPath: first.appendingPathComponent("models/rpc.HealthStatus.json").path))
    }

    @Test func validateAcceptsGoodTraffic() async throws {
        let traffic = """
            {"jsonrpc":"2.0","id":1,"method":"rpc.hello","params":{"client":"cli","profile":"alice"}}
            {"jsonrpc":"2.0","id":1,"result":{"server":"payrpc","version":"0.1.0","protocolVersion":"x","methods":3,"profile":"alice"}}
            {"jsonrpc":"2.0","id":2,"method":"rpc.health"}
            {"jsonrpc":"2.0","id":2,"error":{"code":-32004,"message":"Shutting down"}}
            """
        let (status, out, _) = try await run(["validate"], input: traffic)
        #expect(status == 0, "\(out)")
        #expect(out.contains("4 messages, 0 invalid"))
    }

    @Test func validateNamesEveryViolation() async throws {
        let traffic = """
            {"jsonrpc":"2.0","id":1,"method":"rpc.hello","params":{"profile":"has spaces","extra":1}}
            {"jsonrpc":"2.0","id":2,"method":"rpc.health"}
            {"jsonrpc":"2.0","id":2,"result":{"status":"MAYBE"}}
            """
        let (status, out, _) = try await run(["validate", "--json"], input: traffic)
        #expect(status == 1)
        let verdicts = out.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
        // Required, not expected: with fewer verdicts the lines below would index out of range
        // and crash the whole test process (seen under AddressSanitizer).
        try #require(verdicts.count == 3)
        #expect(verdicts[0]["valid"] == false)
        #expect(verdicts[0]["violations"]?.jsonText.contains("/profile") == true)
        #expect(verdicts[1]["valid"] == true)
        #expect(verdicts[2]["valid"] == false)
        #expect(verdicts[2]["violations"]?.jsonText.contains("/status") == true)
    }

    @Test func validateExitsTwoOnInputThatIsNotJSON() async throws {
        #expect(try await run(["validate"], input: "{\"jsonrpc\":\n").0 == 2)
    }

    @Test func validateAgainstAGivenSchema() async throws {
        let schema = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-schema-\(UUID().uuidString).json")
        try #"{"type":"object","required":["a"],"properties":{"a":{"type":"integer","minimum":1}}}"#
            .write(to: schema, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: schema) }
        #expect(try await run(["validate", "--schema", schema.path], input: "{\"a\":1}\n{\"a\":2}\n").0 == 0)
        let (status, out, _) = try await run(["validate", "--schema", schema.path], input: "{\"a\":0}\n{}\n")
        #expect(status == 1)
        #expect(out.contains("2 messages, 2 invalid"))
        #expect(try await run(["validate", "--schema", "/nonexistent/schema.json"], input: "{}\n").0 == 2)
    }

    @Test func dataExportAndReset() async throws {
        let data = temporaryDataDirectory()
        // Create the store (and a profile's state) through the server first.
        let (status, _, _) = try await run(["call", "rpc.health", "--spawn", "--data", data])
        #expect(status == 0)
        let (exportStatus, exported, _) = try await run(["data", "export", "--profile", "alice", "--data", data])
        #expect(exportStatus == 0)
        #expect((try? JSONValue(parsing: exported)) != nil)
        let (resetStatus, resetOut, _) = try await run(["data", "reset", "--profile", "alice", "--data", data])
        #expect(resetStatus == 0)
        #expect(resetOut.contains("alice"))
    }
}
