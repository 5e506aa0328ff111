import Foundation
import PayRPCTestSupport
import Testing

/// `payrpc-bench run` against the real server (spawned over stdio): the scenarios whose declaration
/// is more than a request line (a set-up line, an expected error, a depth limit) do what they declare.
/// Counts, never timings.
@Suite struct BenchScenarioTests {
    /// `payrpc-bench`: `PAYRPC_BENCH_BIN`, else next to the `payrpc` under test.
    static var bench: URL {
        if let explicit = ProcessInfo.processInfo.environment["PAYRPC_BENCH_BIN"] { return URL(fileURLWithPath: explicit) }
        return SpawnedServer.binary.deletingLastPathComponent().appendingPathComponent("payrpc-bench")
    }

    /// Runs an executable; returns its status, stdout and stderr (through files, so that neither
    /// can fill a pipe and stall the child while the other is read).
    func run(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let outFile = temporaryPath("stdout"), errFile = temporaryPath("stderr")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outFile); try? FileManager.default.removeItem(at: errFile) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outFile)
        process.standardError = try FileHandle(forWritingTo: errFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let status = ChildProcess.status(of: process) ?? -1
        return (status, try String(contentsOf: outFile, encoding: .utf8), try String(contentsOf: errFile, encoding: .utf8))
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

    @Test func wrongPinAnswersEveryCallWithTheWrongPinErrorAndCountsEachOnDisk() throws {
        let data = temporaryPath("data"), sandbox = try sandboxWithoutPinLimit()
        defer { try? FileManager.default.removeItem(at: data); try? FileManager.default.removeItem(at: sandbox) }
        let result = try run(Self.bench, [
            "run", "--spawn", "--binary", SpawnedServer.binary.path, "--scenario", "wrong-pin", "--requests", "200",
            "--warmup", "0", "--json", "--", "--data", data.path, "--sandbox-data", "tatra=\(sandbox.path)",
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
        let export = try run(SpawnedServer.binary, ["data", "export", "--data", data.path])
        #expect(export.status == 0, "\(export.err)")
        let state = try #require(try report(export.out)["tatra"] as? [String: Any])["profile"] as? [String: Any]
        #expect(state?["wrongPinAttempts"] as? Int == calls)
        #expect(state?["blocked"] as? Bool != true)
    }

    @Test func wrongPinRefusesMoreThanOneRequestInFlightPerConnection() throws {
        let result = try run(Self.bench, ["run", "--spawn", "--scenario", "wrong-pin", "--depth", "2"])
        #expect(result.status != 0)
        #expect(result.err.contains("one authorization in flight per connection"), "\(result.err)")
    }

    @Test func anExpectedErrorCountsAsAnAnswerAndAResultThenCountsAsAnError() throws {
        let data = temporaryPath("data")
        defer { try? FileManager.default.removeItem(at: data) }
        let common = ["run", "--spawn", "--binary", SpawnedServer.binary.path, "--requests", "50", "--warmup", "0", "--json"]
        let expected = try run(Self.bench, common + ["--method", "no.such.method", "--expect-error", "-32601", "--", "--data", data.path])
        #expect(expected.status == 0, "\(expected.out)\(expected.err)")
        #expect(try report(expected.out)["answered"] as? Int == 50)

        let notExpected = try run(Self.bench, common + ["--method", "no.such.method", "--", "--data", data.path])
        #expect(notExpected.status == 1)
        #expect((try report(notExpected.out)["errors"] as? [String: Any])?["errorResponses"] as? Int ?? 0 >= 50)

        let aResult = try run(Self.bench, common + ["--scenario", "health", "--expect-error", "-33007", "--", "--data", data.path])
        #expect(aResult.status == 1)
        #expect((try report(aResult.out)["errors"] as? [String: Any])?["unexpectedResults"] as? Int ?? 0 >= 50)
    }

    @Test func aSetupLineThatFailsStopsTheRunBeforeAnyLoad() throws {
        let data = temporaryPath("data")
        defer { try? FileManager.default.removeItem(at: data) }
        let result = try run(Self.bench, [
            "run", "--spawn", "--binary", SpawnedServer.binary.path, "--requests", "10", "--warmup", "0",
            "--setup", #"{"jsonrpc":"2.0","id":1,"method":"tatra.authorizePayment","params":{"pincode":"0000"}}"#,
            "--", "--data", data.path,
        ])
        #expect(result.status != 0)
        #expect(result.err.contains("set-up line 1 on connection 1 was answered with"), "\(result.err)")
        #expect(result.err.contains("execute the payment first"), "\(result.err)")
    }
}
