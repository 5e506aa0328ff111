import PayRPCTestSupport
import Foundation
import PayRPCJSON
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `payrpc serve --tcp` and `--unix`, spawned for real, with real sockets.
@Suite struct SocketTests {
    /// Starts a TCP server on a free loopback port and returns it with its address.
    func tcpServer(
        _ extra: [String] = [], host: String = "127.0.0.1", binary: URL = SpawnedServer.binary
    ) async throws -> (SpawnedServer, String) {
        let server = try await SpawnedServer(["serve", "--tcp", "\(host):0"] + extra, binary: binary)
        let address = try #require(await server.listeningAddress())
        return (server, address)
    }

    @Test func tcpIPv4() async throws {
        let (server, address) = try await tcpServer()
        let client = try SocketClient(tcp: address)
        client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"rpc.health"}"#)
        #expect(await client.nextMessage()?["result"] == ["status": "SERVING"])
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func tcpIPv6() async throws {
        let (server, address) = try await tcpServer(host: "[::1]")
        #expect(address.hasPrefix("[::1]:"))
        let client = try SocketClient(tcp: address)
        client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"rpc.health"}"#)
        #expect(await client.nextMessage()?["result"] == ["status": "SERVING"])
        server.signal(SIGINT)
        #expect(await server.waitForExit() == 0)
    }

    @Test func unixSocketWithMode0600AndStaleFileReplaced() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-\(UUID().uuidString.prefix(8)).sock")
            .path
        // A stale socket file: bound by a process (here, this one) that no longer listens on it.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
            raw[path.utf8.count] = 0
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(stale)
        #expect(FileManager.default.fileExists(atPath: path))

        let server = try await SpawnedServer(["serve", "--unix", path])
        #expect(await server.listeningAddress() != nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let client = try SocketClient(unix: path)
        client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"rpc.health"}"#)
        #expect(await client.nextMessage()?["result"] == ["status": "SERVING"])

        // A live socket is not taken over: a second server on the same path fails to start.
        let second = try await SpawnedServer(["serve", "--unix", path])
        #expect(await second.waitForExit() == 2)
        #expect(second.logText.contains(path))

        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func halfCloseGetsEveryAnswerThenTheConnectionCloses() async throws {
        let (server, address) = try await tcpServer()
        let client = try SocketClient(tcp: address)
        for index in 0..<5 {
            client.sendLine(#"{"jsonrpc":"2.0","id":\#(index),"method":"sandbox.delay","params":{"ms":50}}"#)
        }
        client.shutdownWrite()
        var ids = Set<Int>()
        for _ in 0..<5 {
            if let id = await client.nextMessage()?["id"].flatMap({ Int($0.jsonText) }) { ids.insert(id) }
        }
        #expect(ids == Set(0..<5))
        #expect(await client.waitForEOF())
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func aClientThatVanishesMidResponseDoesNotDisturbAnother() async throws {
        let (server, address) = try await tcpServer()
        let steady = try SocketClient(tcp: address)
        do {
            let leaver = try SocketClient(tcp: address)
            var burst = ""
            for index in 0..<5000 { burst += #"{"jsonrpc":"2.0","id":\#(index),"method":"rpc.discover"}"# + "\n" }
            leaver.write(Array(burst.utf8))
            _ = await leaver.nextLine()
        }  // closed here, with most of its answers unsent
        for index in 0..<20 {
            steady.sendLine(#"{"jsonrpc":"2.0","id":\#(index),"method":"rpc.health"}"#)
            #expect(await steady.nextMessage()?["id"] == .int(index))
        }
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    /// Against the shipped binary: a sanitized server's allocator (redzones, a quarantine of freed
    /// blocks) grows by more than the bound whatever the server does.
    @Test func aClientThatNeverReadsCannotGrowTheServerWithoutBound() async throws {
        let (server, address) = try await tcpServer(binary: SpawnedServer.shippedBinary)
        let before = try #require(server.residentKiB)
        let flooder = try SocketClient(tcp: address)
        let line = Array((#"{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}"# + "\n").utf8)
        var chunk: [UInt8] = []
        for _ in 0..<200 { chunk += line }
        let deadline = Date().addingTimeInterval(8)
        var sent = 0
        while Date() < deadline && sent < 100_000 {
            let written = flooder.tryWrite(chunk)
            if written > 0 {
                sent += written / line.count
            } else if !(await flooder.waitUntilWritable(timeout: deadline.timeIntervalSinceNow)) {
                break  // the server stopped reading the flooder until the deadline
            }
        }
        // The server has stopped reading the flooder; another client is still served.
        let other = try SocketClient(tcp: address)
        other.sendLine(#"{"jsonrpc":"2.0","id":"other","method":"rpc.health"}"#)
        #expect(await other.nextMessage()?["id"] == "other")
        let after = try #require(server.residentKiB)
        #expect(after - before < 64 * 1024, "server RSS grew by \(after - before) KiB")
        server.signal(SIGKILL)
        _ = await server.waitForExit()
    }

    @Test func tokenIsRequiredOnSockets() async throws {
        let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-token-\(UUID().uuidString)")
        try "correct-horse\n".write(to: tokenFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: tokenFile) }
        let (server, address) = try await tcpServer(["--auth-token-file", tokenFile.path])
        let client = try SocketClient(tcp: address)
        client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}"#)
        #expect(await client.nextMessage()?["error"]?["code"] == -32001)
        client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"rpc.health"}"#)
        #expect(await client.nextMessage()?["result"] == ["status": "SERVING"], "a balancer's health check needs no token")
        client.sendLine(#"{"jsonrpc":"2.0","id":2,"method":"rpc.hello","params":{"token":"wrong"}}"#)
        #expect(await client.nextMessage()?["error"]?["code"] == -32001)
        client.sendLine(#"{"jsonrpc":"2.0","id":3,"method":"rpc.hello","params":{"token":"correct-horse"}}"#)
        #expect(await client.nextMessage()?["result"]?["server"] == "payrpc")
        client.sendLine(#"{"jsonrpc":"2.0","id":4,"method":"rpc.health"}"#)
        #expect(await client.nextMessage()?["result"] == ["status": "SERVING"])
        #expect(!server.logText.contains("correct-horse"))
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    /// Tenants: each token opens only its profiles (names, or prefixes ending in `*`); a bare
    /// token opens every profile; a refused hello reads and writes nothing of the profile it
    /// named (its seed is not set); SIGHUP reads the file again, and a broken file is refused
    /// with the tokens in force kept.
    @Test func eachTokenOpensOnlyItsProfilesAndSIGHUPRotatesThem() async throws {
        let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-tokens-\(UUID().uuidString)")
        try "# team A and CI jobs\nteam-a-token alice ci-*\nadmin-token\n".write(to: tokenFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: tokenFile) }
        let (server, address) = try await tcpServer(["--auth-token-file", tokenFile.path])
        func hello(_ params: String) async throws -> JSONValue? {
            let client = try SocketClient(tcp: address)
            defer { client.close() }
            client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"rpc.hello","params":\#(params)}"#)
            return await client.nextMessage()
        }
        let refused = try await hello(#"{"token":"team-a-token","profile":"bob","seed":7}"#)
        #expect(refused?["error"]?["code"] == -32001)
        #expect(refused?["error"]?["data"]?["detail"] == "this token may not use the profile bob")
        #expect(try await hello(#"{"token":"team-a-token"}"#)?["error"]?["code"] == -32001, "not the default profile either")
        #expect(try await hello(#"{"token":"team-a-token","profile":"alice"}"#)?["result"]?["profile"] == "alice")
        #expect(try await hello(#"{"token":"team-a-token","profile":"ci-1234"}"#)?["result"]?["profile"] == "ci-1234")
        #expect(
            try await hello(#"{"token":"admin-token","profile":"bob"}"#)?["result"]?["seed"] == nil,
            "the refused seed was not set")

        try "team-b-token bob\n".write(to: tokenFile, atomically: true, encoding: .utf8)
        server.signal(SIGHUP)
        #expect(await server.waitForLog(containing: "token file read again"))
        #expect(try await hello(#"{"token":"team-a-token","profile":"alice"}"#)?["error"]?["code"] == -32001)
        #expect(try await hello(#"{"token":"team-b-token","profile":"bob"}"#)?["result"]?["profile"] == "bob")

        try "team-c-token c*d\n".write(to: tokenFile, atomically: true, encoding: .utf8)
        server.signal(SIGHUP)
        #expect(await server.waitForLog(containing: "the tokens in force stay"))
        #expect(server.logText.contains("line 1: c*d: a * may only end a profile pattern"))
        #expect(try await hello(#"{"token":"team-b-token","profile":"bob"}"#)?["result"]?["profile"] == "bob")
        for secret in ["team-a-token", "team-b-token", "admin-token", "team-c-token"] {
            #expect(!server.logText.contains(secret))
        }
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }
}
