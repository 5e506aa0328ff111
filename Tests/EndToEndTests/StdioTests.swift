import Foundation
import PayRPCTestSupport
import PayRPCJSON
import Testing
#if canImport(Glibc)
import Glibc
#endif
import PayRPCProcess

/// `payrpc serve --stdio`, spawned for real.
@Suite struct StdioTests {
    @Test func healthAndCleanExitAtEndOfInput() async throws {
        let server = try await SpawnedServer(["serve", "--stdio"])
        let response = try #require(await server.request("rpc.health"))
        #expect(response["result"] == ["status": "SERVING"])
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    @Test func stdoutCarriesProtocolLinesOnly() async throws {
        let server = try await SpawnedServer(["serve", "--stdio", "--log-level", "debug"])
        _ = await server.request("rpc.hello", ["client": "e2e"])
        server.closeInput()
        while let line = await server.nextLine(timeout: 5) {
            #expect((try? JSONValue(parsing: line))?["jsonrpc"] == "2.0", "not a protocol line: \(line)")
        }
        #expect(await server.waitForExit() == 0)
        #expect(!server.logText.isEmpty)
    }

    @Test func pipeliningAThousandDeep() async throws {
        let server = try await SpawnedServer(["serve", "--stdio"])
        var batch = ""
        for index in 0..<1000 { batch += #"{"jsonrpc":"2.0","id":\#(index),"method":"rpc.health"}"# + "\n" }
        server.write(Array(batch.utf8))
        var seen = Set<Int>()
        for _ in 0..<1000 {
            guard let message = await server.nextMessage(), let id = message["id"].flatMap({ Int($0.jsonText) }) else { break }
            #expect(message["result"] == ["status": "SERVING"])
            seen.insert(id)
        }
        #expect(seen == Set(0..<1000))
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    @Test func lineOverTheLimitThenAGoodRequest() async throws {
        let server = try await SpawnedServer(["serve", "--stdio", "--max-line-bytes", "1024"])
        server.write(Array(repeating: UInt8(ascii: "x"), count: 200_000) + [0x0A])
        server.send(#"{"jsonrpc":"2.0","id":2,"method":"rpc.health"}"#)
        let first = try #require(await server.nextMessage())
        #expect(first["error"]?["code"] == -32600)
        #expect(first["id"] == .null)
        let second = try #require(await server.nextMessage())
        #expect(second["id"] == 2)
        #expect(second["result"] == ["status": "SERVING"])
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    @Test func garbageBytesThenAGoodRequest() async throws {
        let server = try await SpawnedServer(["serve", "--stdio"])
        server.write([0xFF, 0xFE, 0x00, 0x7B, 0x22, 0xC3, 0x28, 0x0A])
        server.send(#"{"jsonrpc":"2.0","id":"ok","method":"rpc.health"}"#)
        #expect(await server.nextMessage()?["error"]?["code"] == -32700)
        #expect(await server.nextMessage()?["id"] == "ok")
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    @Test func halfALineThenEndOfInputIsStillAnswered() async throws {
        let server = try await SpawnedServer(["serve", "--stdio"])
        server.write(Array(#"{"jsonrpc":"2.0","id":"last","method":"rpc.health"}"#.utf8))
        server.closeInput()
        #expect(await server.nextMessage()?["id"] == "last")
        #expect(await server.waitForExit() == 0)
    }

    @Test func sigtermAnswersEverythingInFlightThenExitsZero() async throws {
        let server = try await SpawnedServer(["serve", "--stdio"])
        #expect(await server.request("rpc.health") != nil)
        for index in 0..<20 {
            server.send(#"{"jsonrpc":"2.0","id":\#(index),"method":"sandbox.delay","params":{"ms":400}}"#)
        }
        // Lines are read in order: once this one is answered, all twenty are in flight.
        server.send(#"{"jsonrpc":"2.0","id":"read","method":"rpc.health"}"#)
        #expect(await server.nextMessage()?["id"] == "read")
        server.signal(SIGTERM)
        var answered = Set<Int>()
        for _ in 0..<20 {
            guard let message = await server.nextMessage(), let id = message["id"].flatMap({ Int($0.jsonText) }) else { break }
            #expect(message["result"] == 400)
            answered.insert(id)
        }
        #expect(answered == Set(0..<20))
        #expect(await server.waitForExit() == 0)
    }

    @Test func stdinMayBeARegularFile() async throws {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-input-\(UUID().uuidString).ndjson")
        var text = ""
        for index in 0..<50 { text += #"{"jsonrpc":"2.0","id":\#(index),"method":"rpc.health"}"# + "\n" }
        try text.write(to: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: input) }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-e2e-\(UUID().uuidString)")
        let file = try FileHandle(forReadingFrom: input)
        defer { try? file.close() }
        let run = try await ChildRun.run(
            SpawnedServer.binary, ["serve", "--stdio", "--data", data.path, "--log-level", "error"],
            standardInput: .descriptor(file.fileDescriptor))
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 50)
    }

    @Test func stdoutMayBeARegularFile() async throws {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-out-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-e2e-\(UUID().uuidString)")
        var text = ""
        for index in 0..<200 { text += #"{"jsonrpc":"2.0","id":\#(index),"method":"rpc.health"}"# + "\n" }
        let file = try FileHandle(forWritingTo: outputFile)
        defer { try? file.close() }
        let run = try await ChildRun.run(
            SpawnedServer.binary, ["serve", "--stdio", "--data", data.path, "--log-level", "error"],
            input: text, standardOutput: .descriptor(file.fileDescriptor))
        #expect(run.status == 0)
        let written = try String(contentsOf: outputFile, encoding: .utf8)
        #expect(written.split(separator: "\n").count == 200)
    }
}
