import Foundation
import PayRPCJSON
import PayRPCSandbox
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A profile's sandbox state is state of the profile in the store: a SIGKILL and a restart keep its
/// clock, its seed and how far each seeded stream has gone, and the failures it armed.
@Suite struct SandboxStateKillTests {
    /// Three payment requests' secureTokens under seed 7 (one per call).
    private func tokens(_ server: SpawnedServer, count: Int, from first: Int) async -> [String] {
        var tokens: [String] = []
        for index in first..<(first + count) {
            let params: JSONValue = ["amount": "1.00", "currency": "GBP", "reference": .string("kill \(index)")]
            let result = await server.request("pbba.submitPaymentRequest", params, id: .string("submit-\(index)"))
            if let token = result?["result"]?["secureToken"]?.stringValue { tokens.append(token) }
        }
        return tokens
    }

    @Test func clockSeedPositionsAndArmedFailuresSurviveSIGKILL() async throws {
        let data = SandboxControlsTests.dataDirectory("kill")
        let first = try await SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        #expect(await first.request("rpc.hello", ["seed": 7])?["result"]?["seed"] == 7)
        #expect(await first.request("sandbox.clock.advance", ["seconds": 3600], id: "2")?["result"]?["offsetSeconds"] == 3600)
        let armed = await first.request(
            "sandbox.failNext", ["method": "tatra.fetchSetupData", "code": -33000, "count": 2], id: "3")
        #expect(armed?["result"]?["armed"] == 2)
        // One of the two is taken before the kill: one stays armed.
        #expect(await first.request("tatra.fetchSetupData", nil, id: "4")?["error"]?["code"] == -33000)
        let before = await tokens(first, count: 2, from: 0)
        #expect(before.count == 2)
        first.signal(SIGKILL)
        #expect(await first.waitForExit() != 0)

        let second = try await SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        #expect(await second.request("sandbox.clock.get")?["result"]?["offsetSeconds"] == 3600)
        #expect(await second.request("rpc.hello", nil, id: "2")?["result"]?["seed"] == 7)
        #expect(await second.request("tatra.fetchSetupData", nil, id: "3")?["error"]?["code"] == -33000)
        #expect(await second.request("tatra.fetchSetupData", nil, id: "4")?["result"]?["isActivated"] == true)
        let after = await tokens(second, count: 1, from: 2)
        second.closeInput()
        #expect(await second.waitForExit() == 0)

        // The sequence goes on where it was: the same three tokens as one run without a kill.
        let reference = try await SpawnedServer(
            ["serve", "--stdio"], dataDirectory: SandboxControlsTests.dataDirectory("kill-reference"))
        _ = await reference.request("rpc.hello", ["seed": 7])
        let uninterrupted = await tokens(reference, count: 3, from: 0)
        reference.closeInput()
        #expect(await reference.waitForExit() == 0)
        #expect(uninterrupted.count == 3)
        #expect(before + after == uninterrupted)
        try? FileManager.default.removeItem(at: data)
    }
}
