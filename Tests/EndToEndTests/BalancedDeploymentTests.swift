import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The deployment of docs/deploy.md for real: three spawned gateways on one PostgreSQL database
/// (the throw-away cluster), each with the tenants' token file, behind `docs/deploy/haproxy.cfg`
/// as it is, over plain TCP and over TLS.
@Suite struct BalancedDeploymentTests {
    static let tokens = "team-a-token alice ci-*\n"

    /// One request on a new connection through the balancer: `rpc.hello` with `hello`'s params,
    /// then `method`; answers both responses.
    static func call(
        _ address: String, hello: JSONValue, _ method: String, _ params: JSONValue = .null
    ) async throws -> (hello: JSONValue?, answer: JSONValue?) {
        let client = try SocketClient(tcp: address)
        defer { client.close() }
        client.sendLine(request("hello", "rpc.hello", hello))
        let greeted = await client.nextMessage(timeout: 60)
        guard greeted?["result"] != nil else { return (greeted, nil) }
        client.sendLine(request("call", method, params))
        return (greeted, await client.nextMessage(timeout: 60))
    }

    static func request(_ id: String, _ method: String, _ params: JSONValue) -> String {
        var members: [JSONValue.Member] = [.init("jsonrpc", "2.0"), .init("id", .string(id)), .init("method", .string(method))]
        if params != .null { members.append(.init("params", params)) }
        return JSONValue.object(members).jsonText
    }

    @Test func threeGatewaysBehindTheDeploymentsHAProxy() async throws {
        let url = try await SharedDatabase.migrated()
        let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-tenants-\(UUID().uuidString)")
        try Self.tokens.write(to: tokenFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: tokenFile) }
        var gateways: [SpawnedServer] = []
        var addresses: [String] = []
        for _ in 0..<3 {
            let gateway = try await SharedDatabase.gateway(url, ["--tcp", "127.0.0.1:0", "--auth-token-file", tokenFile.path])
            addresses.append(try #require(await gateway.listeningAddress()))
            gateways.append(gateway)
        }
        let balancer = try await Balancer(gateways: addresses)
        let alice: JSONValue = ["token": "team-a-token", "profile": "alice"]

        // The health check needs no token; a tenant's token opens only its profiles.
        let health = try SocketClient(tcp: balancer.plain)
        health.sendLine(Self.request("1", "rpc.health", .null))
        #expect(await health.nextMessage(timeout: 60)?["result"] == ["status": "SERVING"])
        health.close()
        let bob = try await Self.call(balancer.plain, hello: ["token": "team-a-token", "profile": "bob"], "rpc.health")
        #expect(bob.hello?["error"]?["code"] == -32001)

        // Three connections open at once: least-connections gives each gateway one, and a payment
        // request stored through one is read and repeated through the others.
        try await balancer.waitUntilIdle()
        let before = try await balancer.sessionsPerGateway()
        let connections = try (0..<3).map { _ in try SocketClient(tcp: balancer.plain) }
        for (index, connection) in connections.enumerated() {
            connection.sendLine(Self.request("hello\(index)", "rpc.hello", alice))
            #expect(await connection.nextMessage(timeout: 60)?["result"]?["profile"] == "alice")
        }
        let after = try await balancer.sessionsPerGateway()
        #expect(
            after.count == 3 && after.allSatisfy { $0.value - (before[$0.key] ?? 0) == 1 },
            "sessions per gateway: \(before) → \(after)")
        connections[0].sendLine(Self.request("submit", "pbba.submitPaymentRequest", SharedStoreTests.submit("balanced-1")))
        let submitted = try #require(await connections[0].nextMessage(timeout: 60)?["result"])
        let token = try #require(submitted["secureToken"])
        connections[1].sendLine(Self.request("status", "pbba.getPaymentStatus", ["secureToken": token]))
        #expect(await connections[1].nextMessage(timeout: 60)?["result"]?["status"] == "inProgress")
        connections[2].sendLine(Self.request("again", "pbba.submitPaymentRequest", SharedStoreTests.submit("balanced-1")))
        #expect(await connections[2].nextMessage(timeout: 60)?["result"] == submitted, "the idempotency key is shared")
        for connection in connections { connection.close() }

        // Over TLS, terminated at HAProxy.
        let tls = try await balancer.overTLS([
            Self.request("1", "rpc.hello", alice), Self.request("2", "pbba.getPaymentStatus", ["secureToken": token]),
        ])
        #expect(tls.count == 2)
        #expect(try tls.last.map { try JSONValue(parsing: $0) }?["result"]?["status"] == "inProgress", "over TLS: \(tls)")

        // A gateway killed: new connections go on through the other two (HAProxy retries and
        // redispatches until its health check takes the dead one out).
        gateways[0].signal(SIGKILL)
        _ = await gateways[0].waitForExit()
        for _ in 0..<6 {
            let after = try await Self.call(balancer.plain, hello: alice, "pbba.getPaymentStatus", ["secureToken": token])
            #expect(after.answer?["result"]?["status"] == "inProgress", "after the kill: \(String(describing: after))")
        }
        for gateway in gateways.dropFirst() {
            gateway.signal(SIGTERM)
            #expect(await gateway.waitForExit() == 0)
        }
    }

    /// `docs/deploy/payrpc@.service`: `systemd-analyze verify` accepts it (with the binary under
    /// test in place of `/usr/local/bin/payrpc`), its `ExecStart` line starts a gateway (the
    /// specifiers and `/etc/payrpc` files replaced by a temporary directory's) and its
    /// `ExecReload` (SIGHUP) reads the token file again.
    @Test func theSystemdUnitVerifiesAndItsCommandLineServes() async throws {
        let unit = try String(
            contentsOf: SpawnedServer.repositoryRoot.appendingPathComponent("docs/deploy/payrpc@.service"), encoding: .utf8)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = FreePort.loopback()
        let instance = directory.appendingPathComponent("payrpc@\(port).service")
        try unit.replacingOccurrences(of: "/usr/local/bin/payrpc", with: SpawnedServer.binary.path)
            .write(to: instance, atomically: true, encoding: .utf8)
        let verified = try await ChildRun.run(URL(fileURLWithPath: "/usr/bin/systemd-analyze"), ["verify", instance.path])
        #expect(
            verified.status == 0 && verified.errors.isEmpty && verified.output.isEmpty, "\(verified.output)\(verified.errors)")

        let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let keyFile = directory.appendingPathComponent("store.key"), tokenFile = directory.appendingPathComponent("tokens")
        try SharedDatabase.key.write(to: keyFile, atomically: true, encoding: .utf8)
        try Self.tokens.write(to: tokenFile, atomically: true, encoding: .utf8)
        let url = try await SharedDatabase.migrated()
        let command = line.dropFirst("ExecStart=".count)
            .replacingOccurrences(of: "%i", with: String(port)).replacingOccurrences(of: "%S", with: directory.path)
            .replacingOccurrences(of: "${PAYRPC_STORE}", with: url)
            .replacingOccurrences(of: "/etc/payrpc/store.key", with: keyFile.path)
            .replacingOccurrences(of: "/etc/payrpc/tokens", with: tokenFile.path)
            .split(separator: " ").map(String.init)
        #expect(command.first == "/usr/local/bin/payrpc")
        let gateway = try await SpawnedServer(Array(command.dropFirst()))
        #expect(await gateway.listeningAddress() == "127.0.0.1:\(port)", "\(gateway.logText)")
        let greeted = try await Self.call("127.0.0.1:\(port)", hello: ["token": "team-a-token", "profile": "ci-9"], "rpc.health")
        #expect(greeted.answer?["result"] == ["status": "SERVING"])
        gateway.signal(SIGHUP)
        #expect(await gateway.waitForLog(containing: "token file read again"))
        gateway.signal(SIGTERM)
        #expect(await gateway.waitForExit() == 0)
    }
}
