import Foundation
import PayRPCTestSupport
import Testing

/// The peers of `bench/peers` (Python asyncio + orjson, Node, Go) answer what payrpc answers, so
/// the comparison `bench/peers/run` makes stays a comparison of the same work: `bench/peers/check.py`
/// sends each peer and the spawned payrpc the same valid and invalid `tatra.executePayment` calls
/// (and `rpc.health`) and compares the answers. Node and Go are checked when their toolchains are
/// installed (`scripts/ensure-deps --with-clients`); the Python peer always. Against the shipped
/// binary (``SpawnedServer/shippedBinary``): the comparison the harness makes is with it.
@Suite struct PeerHarnessTests {
    /// The peers whose toolchain is on `PATH`.
    static var peers: [String] {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        func installed(_ tool: String) -> Bool {
            path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
        }
        return ["python"] + (installed("node") ? ["node"] : []) + (installed("go") ? ["go"] : [])
    }

    @Test func everyPeerAnswersValidAndInvalidPaymentsAsPayRPCDoes() async throws {
        let python = ProcessInfo.processInfo.environment["PAYRPC_TEST_PYTHON"] ?? "python3"
        let script = SpawnedServer.repositoryRoot.appendingPathComponent("bench/peers/check.py")
        // A loaded machine builds the Go peer in minutes where it takes a second alone.
        let run = try await ChildRun.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [python, script.path, "--payrpc", SpawnedServer.shippedBinary.path, "--peers", Self.peers.joined(separator: ",")],
            timeout: 600)
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        let lines = run.output.split(separator: "\n")
        for peer in Self.peers {
            #expect(
                lines.contains { $0.hasPrefix("\(peer): ") && $0.hasSuffix(" answers as payrpc's") }, "\(run.output)\(run.errors)"
            )
        }
    }
}
