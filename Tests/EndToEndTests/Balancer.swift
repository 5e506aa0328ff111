import Foundation
import PayRPCProcess
import PayRPCTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `docs/deploy/haproxy.cfg` run as it is (Debian's HAProxy, its addresses from the environment
/// as the file says), in front of the given gateways, with a TLS certificate for 127.0.0.1 that
/// `openssl` makes in a temporary directory. A second configuration file adds only an admin
/// socket, from which ``sessionsPerGateway()`` reads how many connections each gateway got.
final class Balancer: Sendable {
    /// Plain TCP (`PAYRPC_LISTEN`).
    let plain: String
    /// TLS (`PAYRPC_TLS_LISTEN`).
    let tls: String
    /// The certificate a TLS client trusts.
    let certificate: URL
    let directory: URL
    private let process: SpawnedProcess
    private let watchdog: SpawnedProcess

    init(gateways: [String]) async throws {
        precondition(gateways.count == 3, "the deployment's file names three gateways")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-haproxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        certificate = directory.appendingPathComponent("certificate.pem")
        let key = directory.appendingPathComponent("key.pem")
        let made = try await ChildRun.run(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", key.path, "-out", certificate.path,
            ])
        #expect(made.status == 0, "openssl: \(made.errors)")
        let pem = directory.appendingPathComponent("haproxy.pem")
        try (String(contentsOf: certificate, encoding: .utf8) + String(contentsOf: key, encoding: .utf8))
            .write(to: pem, atomically: true, encoding: .utf8)
        let adminFile = directory.appendingPathComponent("admin.cfg")
        try "global\n    stats socket \(directory.path)/admin.sock level admin\n".write(
            to: adminFile, atomically: true, encoding: .utf8)
        plain = "127.0.0.1:\(FreePort.loopback())"
        tls = "127.0.0.1:\(FreePort.loopback())"
        let configuration = SpawnedServer.repositoryRoot.appendingPathComponent("docs/deploy/haproxy.cfg")
        process = try await SpawnedProcess.start(
            "/usr/sbin/haproxy", arguments: ["-db", "-f", configuration.path, "-f", adminFile.path],
            environment: [
                "PAYRPC_LISTEN": plain, "PAYRPC_TLS_LISTEN": tls, "PAYRPC_TLS_PEM": pem.path,
                "PAYRPC_GATEWAY_1": gateways[0], "PAYRPC_GATEWAY_2": gateways[1], "PAYRPC_GATEWAY_3": gateways[2],
            ], standardInput: .discard, standardOutput: .discard, standardError: .discard)
        // HAProxy does not read stdin, so nothing tells it when a crashed test process is gone:
        // this kills it then (`tail --pid` waits for the test process). Dropped with the balancer.
        watchdog = try await SpawnedProcess.start(
            "/usr/bin/setsid",
            arguments: ["/bin/sh", "-c", "tail --pid=\(getpid()) -f /dev/null; kill -9 \(process.processID) 2>/dev/null"],
            standardInput: .discard, standardOutput: .discard, standardError: .discard)
        // HAProxy says nothing when it is ready: its admin socket answering is the sign.
        let deadline = Date().addingTimeInterval(60)
        while (try? await self.admin("show info")) == nil {
            guard Date() < deadline, process.exitStatus == nil else {
                throw BalancerError("haproxy did not start (exit \(String(describing: process.exitStatus)))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    deinit {
        process.signal(SIGKILL)
        watchdog.signal(SIGKILL)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Sends one command to the admin socket and answers what HAProxy replies.
    func admin(_ command: String) async throws -> String {
        let client = try SocketClient(unix: directory.appendingPathComponent("admin.sock").path)
        defer { client.close() }
        client.sendLine(command)
        var lines: [String] = []
        while let line = await client.nextLine(timeout: 15) { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// How many connections HAProxy has given each gateway so far (`show stat`'s `stot`), or
    /// with `current` how many it has open now (`scur`), by server name (`gateway1` ...).
    func sessionsPerGateway(current: Bool = false) async throws -> [String: Int] {
        let table = try await admin("show stat").split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        guard let header = table.first, let name = header.firstIndex(of: "svname"),
            let total = header.firstIndex(of: current ? "scur" : "stot")
        else {
            return [:]
        }
        var sessions: [String: Int] = [:]
        for row in table.dropFirst() where row.count > total && row[name].hasPrefix("gateway") {
            sessions[String(row[name])] = Int(row[total]) ?? 0
        }
        return sessions
    }

    /// Waits until no connection through HAProxy is open (the ones a test closed are closed on
    /// both sides), so that least-connections starts from zero everywhere.
    func waitUntilIdle() async throws {
        let deadline = Date().addingTimeInterval(60)
        while try await sessionsPerGateway(current: true).values.contains(where: { $0 > 0 }) {
            guard Date() < deadline else { throw BalancerError("connections through HAProxy stayed open") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Sends `lines` over TLS (Python's `ssl`, trusting only ``certificate`` and checking the
    /// name 127.0.0.1) and answers one line read back for each.
    func overTLS(_ lines: [String]) async throws -> [String] {
        let script = """
            import socket, ssl, sys
            host, port = sys.argv[1].rsplit(":", 1)
            context = ssl.create_default_context(cafile=sys.argv[2])
            with socket.create_connection((host, int(port)), timeout=60) as raw:
                with context.wrap_socket(raw, server_hostname=host) as tls:
                    reader = tls.makefile("rb")
                    for line in sys.stdin.buffer:
                        tls.sendall(line)
                        sys.stdout.buffer.write(reader.readline())
            """
        let run = try await ChildRun.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, tls, certificate.path],
            input: lines.map { $0 + "\n" }.joined())
        #expect(run.status == 0, "the TLS client: \(run.errors)")
        return run.output.split(separator: "\n").map(String.init)
    }
}

/// HAProxy did not come up.
struct BalancerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
