import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Faults from outside, against the spawned binary: a peer that resets its connection while the
/// server writes to it, and a store that fills up (`--store-max-bytes`).
@Suite struct FaultInjectionTests {
    /// The server's open descriptors (`/proc/PID/fd`).
    static func descriptorCount(_ server: SpawnedServer) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/fd").count) ?? -1
    }

    /// Runs `payrpc data check` on `directory`; its exit status.
    static func dataCheck(_ directory: URL) async throws -> Int32? {
        try await ChildRun.run(SpawnedServer.binary, ["data", "check", "--data", directory.path, "--log-level", "error"]).status
    }

    // MARK: Peer reset

    @Test(
        "a peer reset while the server writes to it: no crash, no leaked descriptor, others served, its stored call kept",
        arguments: ["tcp", "unix"])
    func peerResetMidWrite(transport: String) async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-reset-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let socketPath = data.appendingPathComponent("s.sock").path
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let listener = transport == "tcp" ? ["--tcp", "127.0.0.1:0"] : ["--unix", socketPath]
        let server = try await SpawnedServer(["serve", "--log-level", "debug"] + listener, dataDirectory: data)
        let address = try #require(await server.listeningAddress())
        func connect() throws -> SocketClient {
            transport == "tcp" ? try SocketClient(tcp: address) : try SocketClient(unix: address)
        }

        let steady = try connect()
        steady.sendLine(#"{"jsonrpc":"2.0","id":0,"method":"rpc.hello","params":{"profile":"resetter"}}"#)
        #expect(await steady.nextMessage(timeout: 120)?["result"]?["profile"] == "resetter")
        // What the resetter's calls open for good (the store's reader connections) is open already.
        steady.sendLine(#"{"jsonrpc":"2.0","id":"warm","method":"sandbox.clock.advance","params":{"seconds":0}}"#)
        #expect(await steady.nextMessage(timeout: 120)?["id"] == "warm")
        steady.sendLine(#"{"jsonrpc":"2.0","id":"discover","method":"rpc.discover"}"#)
        #expect(await steady.nextMessage(timeout: 120)?["id"] == "discover")
        let baseline = Self.descriptorCount(server)

        // A stateful call, then far more answers than the socket buffers hold; nothing is read.
        do {
            let resetter = try connect()
            var burst = #"{"jsonrpc":"2.0","id":"hello","method":"rpc.hello","params":{"profile":"resetter"}}"# + "\n"
            burst += #"{"jsonrpc":"2.0","id":"stateful","method":"sandbox.clock.advance","params":{"seconds":1234}}"# + "\n"
            for index in 0..<3000 { burst += #"{"jsonrpc":"2.0","id":\#(index),"method":"rpc.discover"}"# + "\n" }
            let bytes = Array(burst.utf8)
            var sent = 0
            // The server stops reading a connection whose unsent output is large: write what it
            // takes, waiting for the socket to take more; two seconds without room ends it.
            while sent < bytes.count {
                let written = bytes[sent...].withUnsafeBytes {
                    Glibc.send(resetter.fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if written > 0 {
                    sent += written
                } else if !(await resetter.waitUntilWritable(timeout: 2)) {
                    break
                }
            }
            // The stateful call has run once its answer arrives. It runs as a task, so a few
            // rpc.discover answers may come first; reading up to 100 of the 3000 leaves the rest of
            // the output unread.
            var answered: [String] = []
            while answered.count < 100, !answered.contains("stateful"),
                let message = await resetter.nextMessage(timeout: 120)
            {
                answered.append(message["id"]?.stringValue ?? message["id"]?.jsonText ?? "?")
            }
            #expect(answered.contains("stateful"), "\(answered)")
            steady.sendLine(#"{"jsonrpc":"2.0","id":"offset","method":"sandbox.clock.get"}"#)
            let offset = await steady.nextMessage(timeout: 120)?["result"]?["offsetSeconds"]?.jsonText
            #expect(offset == "1234")
            #expect(Self.descriptorCount(server) == baseline + 1)

            // Reset: SO_LINGER {1, 0} makes close() send RST on TCP; on a Unix socket, closing with
            // unread data makes the server's next write fail (ECONNRESET/EPIPE). The descriptor is
            // closed when `resetter` goes, at the end of this block.
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            #expect(setsockopt(resetter.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size)) == 0)
        }

        // Others are still served; the reset connection's descriptor goes back: the server logs
        // "connection closed" once it has closed it.
        #expect(await server.waitForLog(containing: "connection closed"))
        steady.sendLine(#"{"jsonrpc":"2.0","id":"after","method":"rpc.health"}"#)
        #expect(await steady.nextMessage(timeout: 120)?["result"]?["status"] == "SERVING")
        let count = Self.descriptorCount(server)
        #expect(count == baseline, "descriptors: \(count), before the reset: \(baseline)")

        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
        #expect(!server.logText.contains("Fatal error"))
        // The reset met the server in the middle of its output (ECONNRESET on TCP, EPIPE on Unix).
        let failures = server.logText.split(separator: "\n").filter { $0.contains("failed, closing") }
        #expect(failures.contains { $0.contains("ECONNRESET") || $0.contains("EPIPE") }, "\(failures)")

        // The answer never reached the client; the write did, durably.
        let restarted = try await SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        _ = await restarted.request("rpc.hello", ["profile": "resetter"], id: 1)
        let clock = await restarted.request("sandbox.clock.get", id: 2)
        #expect(clock?["result"]?["offsetSeconds"]?.jsonText == "1234")
        restarted.closeInput()
        #expect(await restarted.waitForExit() == 0)
    }

    // MARK: Disk full

    @Test("a full store answers -32008, loses nothing acknowledged, serves reads, and takes writes again once space returns")
    func storeFull() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-full-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await SpawnedServer(["serve", "--stdio", "--store-max-bytes", "96K"], dataDirectory: data)
        // Payment requests, each with a long idempotency key (kept by the store too), until one does not fit.
        let longKey = String(repeating: "k", count: 240)
        func submit(_ index: Int) async -> JSONValue? {
            await server.request(
                "pbba.submitPaymentRequest",
                [
                    "amount": "1.00", "currency": "GBP", "reference": .string("full \(index)"),
                    "_meta": ["idempotencyKey": .string("\(index)-\(longKey)")],
                ], id: .int(index))
        }
        var acknowledged: [(index: Int, token: String)] = []
        var refusal: JSONValue?
        for index in 0..<2000 {
            let response = await submit(index)
            if let token = response?["result"]?["secureToken"]?.stringValue {
                acknowledged.append((index, token))
            } else {
                refusal = response
                break
            }
        }
        let error = try #require(refusal?["error"], "\(String(describing: refusal))")
        #expect(error["code"] == -32008)
        #expect(error["message"] == "Store full")
        #expect(error["data"]?["type"] == "storeFull")
        #expect(acknowledged.count >= 5)

        // Reads while full: every acknowledged request, and a replay of an acknowledged call.
        for (index, token) in acknowledged {
            let status = await server.request("pbba.getPaymentStatus", ["secureToken": .string(token)], id: .int(10_000 + index))
            #expect(status?["result"]?["status"] == "inProgress")
        }
        let first = try #require(acknowledged.first)
        #expect(await submit(first.index)?["result"]?["secureToken"]?.stringValue == first.token)
        #expect(await server.request("rpc.health", id: "health")?["result"]?["status"] == "SERVING")

        // Space returns without a restart: sandbox.reset deletes the profile's idempotency keys.
        #expect(await server.request("sandbox.reset", id: "reset")?["result"] == .null)
        let after = await server.request(
            "pbba.submitPaymentRequest",
            ["amount": "1.00", "currency": "GBP", "reference": "after reset"], id: "after")
        let afterToken = try #require(after?["result"]?["secureToken"]?.stringValue, "\(String(describing: after))")
        server.closeInput()
        #expect(await server.waitForExit() == 0)
        #expect(!server.logText.contains("handler failed"))
        #expect(try await Self.dataCheck(data) == 0)

        // Restarted with a larger limit: everything acknowledged is there, and new writes fit.
        let restarted = try await SpawnedServer(["serve", "--stdio", "--store-max-bytes", "4M"], dataDirectory: data)
        var found = 0
        for (index, token) in acknowledged + [(-1, afterToken)] {
            let status = await restarted.request(
                "pbba.getPaymentStatus", ["secureToken": .string(token)], id: .int(20_000 + index))
            if status?["result"]?["status"] == "inProgress" { found += 1 }
        }
        #expect(found == acknowledged.count + 1)
        let more = await restarted.request(
            "pbba.submitPaymentRequest",
            ["amount": "2.00", "currency": "GBP", "reference": "after restart"], id: "more")
        #expect(more?["result"]?["secureToken"] != nil)
        restarted.closeInput()
        #expect(await restarted.waitForExit() == 0)
    }

    @Test("--store-max-bytes refuses a malformed or tiny size with a usage error")
    func storeMaxBytesValidation() async throws {
        for bad in ["12Q", "-5", "1K", ""] {
            let server = try await SpawnedServer(["serve", "--stdio", "--store-max-bytes", bad])
            #expect(await server.waitForExit() == 64, "--store-max-bytes \(bad)")
            #expect(server.logText.contains("--store-max-bytes"))
            try? FileManager.default.removeItem(at: server.dataDirectory)
        }
    }
}
