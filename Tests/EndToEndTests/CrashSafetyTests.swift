import Foundation
import PayRPCTestSupport
import PayRPCJSON
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Nothing acknowledged is lost: SIGKILL in the middle of a stream of acknowledged writes, then a
/// restart on the same data directory.
@Suite struct CrashSafetyTests {
    @Test func everyAcknowledgedWriteSurvivesSIGKILL() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-crash-\(UUID().uuidString)")
        let server = try await SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        // A stream of payment requests (each one a durable write), pipelined; kill after 150 answers.
        var stream = ""
        for index in 0..<2000 {
            stream += #"{"jsonrpc":"2.0","id":\#(index),"method":"pbba.submitPaymentRequest","params":{"amount":"1.00","currency":"GBP","reference":"crash \#(index)"}}"# + "\n"
        }
        server.write(Array(stream.utf8))
        var acknowledged: [String] = []
        while acknowledged.count < 150, let message = await server.nextMessage() {
            if let token = message["result"]?["secureToken"]?.stringValue { acknowledged.append(token) }
        }
        server.signal(SIGKILL)
        #expect(await server.waitForExit() != 0)
        #expect(acknowledged.count == 150)

        let restarted = try await SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        var found = 0
        for (index, token) in acknowledged.enumerated() {
            let response = await restarted.request("pbba.getPaymentStatus", ["secureToken": .string(token)], id: .int(index))
            if response?["result"]?["status"] == "inProgress" { found += 1 }
        }
        #expect(found == acknowledged.count)
        restarted.closeInput()
        #expect(await restarted.waitForExit() == 0)

        let check = Process()
        check.executableURL = SpawnedServer.binary
        check.arguments = ["data", "check", "--data", data.path, "--log-level", "error"]
        check.standardOutput = Pipe()
        try check.run()
        #expect(ChildProcess.status(of: check) == 0)
    }
}
