import Foundation
import PayRPCTestSupport
import Testing
import PayRPCProcess

/// `payrpc-bench run` against the real server (spawned over stdio): the scenarios whose declaration
/// is more than a request line (a set-up line, an expected error, a depth limit) do what they declare.
/// Counts, never timings.
@Suite struct BenchScenarioTests {
    /// `payrpc-bench`: `PAYRPC_BENCH_BIN`, else next to the `payrpc` under test.
    static var bench: URL {
        if let explicit = ProcessInfo.processInfo.environment["PAYRPC_BENCH_BIN"] { return URL(fileURLWithPath: explicit) }
        return SpawnedServer.binary.deletingLastPathComponent().appendingPathComponent("payrpc-bench")
    }

    /// Runs an executable with stdin `/dev/null`; returns its status, stdout and stderr.
    func run(_ executable: URL, _ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
        // A whole-suite run under a sanitizer starts dozens of servers at once: a child may take
        // minutes where it takes a second alone, so it gets them (the bench's own --timeout too).
        let run = try await ChildRun.run(executable, arguments, standardInput: .discard, timeout: 700)
        return (run.status ?? -1, run.output, run.errors)
    }

    func temporaryPath(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-bench-\(name)-\(UUID().uuidString)")
    }

    /// The shipped Tatra sandbox data with `wrongPinLimit` out of reach, written to a temporary file
    /// (what scripts/bench.sh does for the `wrong-pin` rows).
    func sandboxWithoutPinLimit() throws -> URL {
        let shipped = SpawnedServer.repositoryRoot.appendingPathComponent("Sources/TatraService/Resources/tatra-sandbox.json")
        var data = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: shipped)) as? [String: Any])
        data["wrongPinLimit"] = 1 << 40
        let file = temporaryPath("tatra").appendingPathExtension("json")
        try JSONSerialization.data(withJSONObject: data).write(to: file)
        return file
    }

    /// The `--json` report of a run.
    func report(_ out: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], "not a report: \(out)")
    }

    @Test func wrongPinAnswersEveryCallWithTheWrongPinErrorAndCountsEachOnDisk() async throws {
        let data = temporaryPath("data"), sandbox = try sandboxWithoutPinLimit()
        defer {
            try? FileManager.default.removeItem(at: data)
            try? FileManager.default.removeItem(at: sandbox)
        }
        let result = try await run(
            Self.bench,
            [
                "run", "--spawn", "--binary", SpawnedServer.binary.path, "--scenario", "wrong-pin", "--requests", "200",
                "--warmup", "0", "--timeout", "600", "--json", "--", "--data", data.path, "--sandbox-data",
                "tatra=\(sandbox.path)",
            ])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        let r = try report(result.out)
        #expect(r["errorCount"] as? Int == 0, "\(result.out)")
        #expect(r["answered"] as? Int == 200)
        #expect(r["expectedErrorCode"] as? Int == -33007)
        let calls = try #require(r["answeredOverall"] as? Int)
        #expect(calls >= 200)
        // Every answer was a counted wrong PIN, on disk: the profile's counter equals the calls, and
        // the application is not blocked (a blocked one answers -33007 too but counts nothing).
        let export = try await run(SpawnedServer.binary, ["data", "export", "--data", data.path])
        #expect(export.status == 0, "\(export.err)")
        let state = try #require(try report(export.out)["tatra"] as? [String: Any])["profile"] as? [String: Any]
        #expect(state?["wrongPinAttempts"] as? Int == calls)
        #expect(state?["blocked"] as? Bool != true)
    }

    @Test func wrongPinRefusesMoreThanOneRequestInFlightPerConnection() async throws {
        let result = try await run(Self.bench, ["run", "--spawn", "--scenario", "wrong-pin", "--depth", "2"])
        #expect(result.status != 0)
        #expect(result.err.contains("one authorization in flight per connection"), "\(result.err)")
    }

    @Test func anExpectedErrorCountsAsAnAnswerAndAResultThenCountsAsAnError() async throws {
        let data = temporaryPath("data")
        defer { try? FileManager.default.removeItem(at: data) }
        let common = [
            "run", "--spawn", "--binary", SpawnedServer.binary.path, "--requests", "50", "--warmup", "0", "--timeout", "600",
            "--json",
        ]
        let expected = try await run(
            Self.bench, common + ["--method", "no.such.method", "--expect-error", "-32601", "--", "--data", data.path])
        #expect(expected.status == 0, "\(expected.out)\(expected.err)")
        #expect(try report(expected.out)["answered"] as? Int == 50)

        let notExpected = try await run(Self.bench, common + ["--method", "no.such.method", "--", "--data", data.path])
        #expect(notExpected.status == 1)
        #expect((try report(notExpected.out)["errors"] as? [String: Any])?["errorResponses"] as? Int ?? 0 >= 50)

        let aResult = try await run(
            Self.bench, common + ["--scenario", "health", "--expect-error", "-33007", "--", "--data", data.path])
        #expect(aResult.status == 1)
        #expect((try report(aResult.out)["errors"] as? [String: Any])?["unexpectedResults"] as? Int ?? 0 >= 50)
    }

    @Test func aSetupLineThatFailsStopsTheRunBeforeAnyLoad() async throws {
        let data = temporaryPath("data")
        defer { try? FileManager.default.removeItem(at: data) }
        let result = try await run(
            Self.bench,
            [
                "run", "--spawn", "--binary", SpawnedServer.binary.path, "--requests", "10", "--warmup", "0", "--timeout", "600",
                "--setup", #"{"jsonrpc":"2.0","id":1,"method":"tatra.authorizePayment","params":{"pincode":"0000"}}"#,
                "--", "--data", data.path,
            ])
        #expect(result.status != 0)
        #expect(result.err.contains("set-up line 1 on connection 1 was answered with"), "\(result.err)")
        #expect(result.err.contains("execute the payment first"), "\(result.err)")
    }
}
