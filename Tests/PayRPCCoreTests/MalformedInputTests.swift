import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCTestSupport
import Testing

/// Thousands of damaged requests, deterministic (seeded): the engine answers each line that
/// needs an answer with a JSON-RPC error or a result, never crashes, and keeps serving.
@Suite struct MalformedInputTests {
    static let seeds: [String] = [
        #"{"jsonrpc":"2.0","id":1,"method":"subtract","params":[42,23]}"#,
        #"{"jsonrpc":"2.0","id":"x","method":"subtract","params":{"minuend":1,"subtrahend":2}}"#,
        #"[{"jsonrpc":"2.0","id":1,"method":"sum","params":[1,2]},{"jsonrpc":"2.0","method":"update","params":[1]}]"#,
        #"{"jsonrpc":"2.0","id":9,"method":"rpc.hello","params":{"client":"c","profile":"p","_meta":{"timeoutMs":5}}}"#,
        #"{"jsonrpc":"2.0","id":[1],"method":"$/cancelRequest","params":{"id":"\u00e9"}}"#,
    ]

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func damagedRequestsNeverCrashTheEngine(seed: UInt64) async throws {
        let harness = try EngineHarness(services: [TestService()])
        let client = harness.connect()
        var random = SeededGenerator(seed: seed)
        let interesting: [UInt8] = Array(#"{}[]",:"\0123456789-.eEtrufalsn \#u{7F}"#.utf8) + [0x00, 0x0A, 0xC3, 0xFF, 0xED, 0xA0]
        for _ in 0..<2000 {
            var bytes = Array(Self.seeds[Int(random.next() % UInt64(Self.seeds.count))].utf8)
            for _ in 0..<(1 + Int(random.next() % 4)) {
                guard !bytes.isEmpty else { break }
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes[position] = interesting[Int(random.next() % UInt64(interesting.count))]
                case 1: bytes.remove(at: position)
                case 2: bytes.insert(interesting[Int(random.next() % UInt64(interesting.count))], at: position)
                default: bytes.removeSubrange(position...)
                }
            }
            // Lines never contain a newline: the transport splits on it.
            bytes.removeAll { $0 == 0x0A }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            client.send(bytes: bytes)
            if ProcessInfo.processInfo.environment["PAYRPC_FUZZ_DEBUG"] != nil {
                client.send(#"{"jsonrpc":"2.0","id":"ping","method":"rpc.health"}"#)
                if await client.response(id: "ping") == nil {
                    Issue.record(
                        "stuck after: \(bytes.map { String($0) }.joined(separator: ","))  \(String(decoding: bytes, as: UTF8.self))"
                    )
                    return
                }
            }
        }
        client.send(#"{"jsonrpc":"2.0","id":"last","method":"rpc.health"}"#)
        let last = try #require(await client.response(id: "last"))
        #expect(last["result"] == ["status": "SERVING"])
        // Every line the engine wrote is one JSON-RPC response (or a batch of them).
        for line in client.unreadLines {
            let message = try #require(try? JSONValue(parsing: line), "not JSON: \(line)")
            switch message {
            case .array(let members):
                #expect(members.allSatisfy { $0["jsonrpc"] == "2.0" && ($0["result"] != nil || $0["error"] != nil) })
            default:
                #expect(message["jsonrpc"] == "2.0")
                #expect(message["result"] != nil || message["error"] != nil, "\(line)")
            }
        }
    }
}
