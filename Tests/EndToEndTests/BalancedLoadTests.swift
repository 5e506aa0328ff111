import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 30's failures under load, through the deployment as a user runs it: three gateways on
/// one PostgreSQL cluster of the test's own, behind `docs/deploy/haproxy.cfg`, and clients that
/// each write through one connection of the balancer, one durable call after another
/// (`pbba.submitPaymentRequest`, its idempotency key its name). A gateway SIGKILLed mid-load:
/// its clients see their connection end, connect again through HAProxy, send again the call they
/// had no answer to (with its key) and go on. PostgreSQL stopped mid-load: calls are answered
/// -32009, retryable; once it is back the same keys succeed. Afterwards every acknowledged write
/// is read back through the balancer with the answer it was acknowledged with.
@Suite(.serialized) struct BalancedLoadTests {
    /// How many clients write at once, and how many writes each makes per phase.
    static let clients = 6
    static let writes = 30

    /// What the clients were told, shared by them: acknowledged results by key, how many calls
    /// were answered -32009, how many connections ended under a client, and a gate the clients
    /// wait at after a -32009 until the test says the database is back.
    actor Ledger {
        var acknowledged: [String: JSONValue] = [:]
        var unavailable = 0
        var reconnections = 0
        var otherErrors: [String] = []
        private var storeIsBack = true
        private var waitingForStore: [CheckedContinuation<Void, Never>] = []
        private var progressWaiters: [(Int, CheckedContinuation<Void, Never>)] = []
        private var unavailableWaiters: [(Int, CheckedContinuation<Void, Never>)] = []

        func acknowledge(_ key: String, _ result: JSONValue) {
            acknowledged[key] = result
            let count = acknowledged.count
            progressWaiters.removeAll { waiter in
                guard count >= waiter.0 else { return false }
                waiter.1.resume()
                return true
            }
        }

        func reconnected() { reconnections += 1 }
        func failed(_ text: String) { otherErrors.append(text) }

        /// A -32009: counted; waits until the store is back when the test stopped it.
        func storeUnavailable() async {
            unavailable += 1
            let count = unavailable
            unavailableWaiters.removeAll { waiter in
                guard count > waiter.0 else { return false }
                waiter.1.resume()
                return true
            }
            guard !storeIsBack else { return }
            await withCheckedContinuation { waitingForStore.append($0) }
        }

        func storeStopped() { storeIsBack = false }

        func storeStarted() {
            storeIsBack = true
            for waiter in waitingForStore { waiter.resume() }
            waitingForStore = []
        }

        /// Returns once more than `count` calls were answered -32009 in all.
        func waitFor(unavailableAbove count: Int) async {
            guard unavailable <= count else { return }
            await withCheckedContinuation { unavailableWaiters.append((count, $0)) }
        }

        /// Returns once `count` writes are acknowledged in all.
        func waitFor(acknowledged count: Int) async {
            guard acknowledged.count < count else { return }
            await withCheckedContinuation { progressWaiters.append((count, $0)) }
        }
    }

    /// One client: `writes` calls through the balancer at `address`, one at a time; a connection
    /// that ends is opened again and the unanswered call sent again with its key; a -32009 is sent
    /// again once the store is back.
    static func client(_ name: String, phase: String, address: String, ledger: Ledger) async {
        var connection = try? SocketClient(tcp: address)
        var index = 0
        var attempts = 0
        while index < writes {
            attempts += 1
            guard attempts < writes * 20 else {
                await ledger.failed("\(name): gave up at \(index)")
                return
            }
            let key = "\(phase)-\(name)-\(index)"
            guard let open = connection else {
                await ledger.reconnected()
                connection = try? SocketClient(tcp: address)
                continue
            }
            open.sendLine(SharedStoreFailureTests.submitLine(key))
            guard let answer = await open.nextMessage(timeout: 60) else {
                // The gateway behind this connection died (or HAProxy cut it): connect again.
                open.close()
                connection = nil
                continue
            }
            if let result = answer["result"] {
                await ledger.acknowledge(key, result)
                index += 1
            } else if answer["error"]?["code"] == -32009, answer["error"]?["data"]?["retryable"] == true {
                await ledger.storeUnavailable()
            } else if answer["error"]?["code"] == -32005, answer["error"]?["message"] == "Idempotency key in use" {
                // Sent again after its gateway died, before the store saw it die: its claim is
                // still the dead gateway's for a moment. Sent again.
                continue
            } else {
                await ledger.failed("\(key): \(answer.jsonText)")
                index += 1
            }
        }
        connection?.close()
    }

    /// Runs every client of a phase; `during` runs once the clients acknowledged `after` writes.
    static func phase(
        _ phase: String, address: String, ledger: Ledger, after count: Int, during: @escaping @Sendable () async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<clients {
                group.addTask { await client("c\(index)", phase: phase, address: address, ledger: ledger) }
            }
            group.addTask {
                await ledger.waitFor(acknowledged: count)
                try await during()
            }
            try await group.waitForAll()
        }
    }

    @Test func aGatewayKilledAndPostgreSQLRestartedUnderLoadBehindHAProxyLoseNoAcknowledgedWrite() async throws {
        let cluster = try await PostgresTestCluster.own()
        let url = try await SharedDatabase.migrated(on: cluster)
        var gateways: [SpawnedServer] = []
        var addresses: [String] = []
        for _ in 0..<3 {
            let gateway = try await SharedDatabase.gateway(url, ["--tcp", "127.0.0.1:0"])
            addresses.append(try #require(await gateway.listeningAddress()))
            gateways.append(gateway)
        }
        let balancer = try await Balancer(gateways: addresses)
        let ledger = Ledger()
        let victim = gateways[0]

        // Phase 1: a gateway SIGKILLed once a sixth of the writes are acknowledged.
        try await Self.phase("kill", address: balancer.plain, ledger: ledger, after: Self.clients * Self.writes / 6) {
            victim.signal(SIGKILL)
            _ = await victim.waitForExit()
        }
        #expect(await victim.waitForExit() == SIGKILL)
        #expect(await ledger.otherErrors == [])
        #expect(await ledger.acknowledged.count == Self.clients * Self.writes)
        #expect(await ledger.reconnections > 0, "no client was on the killed gateway")

        // Phase 2: PostgreSQL stopped once a sixth of this phase's writes are acknowledged, and
        // started again once a client was told -32009.
        let before = await ledger.acknowledged.count
        let unavailableBefore = await ledger.unavailable
        try await Self.phase("restart", address: balancer.plain, ledger: ledger, after: before + Self.clients * Self.writes / 6) {
            await ledger.storeStopped()
            try await cluster.stop()
            // Every client now gets -32009 (the store is gone): wait for the first one, then start.
            await ledger.waitFor(unavailableAbove: unavailableBefore)
            try await cluster.start()
            await ledger.storeStarted()
        }
        #expect(await ledger.otherErrors == [])
        #expect(await ledger.acknowledged.count == 2 * Self.clients * Self.writes)
        #expect(await ledger.unavailable > unavailableBefore)

        // Every acknowledged write is there: its key answers the same result through the balancer.
        let reader = try SocketClient(tcp: balancer.plain)
        for (key, result) in await ledger.acknowledged.sorted(by: { $0.key < $1.key }) {
            reader.sendLine(SharedStoreFailureTests.submitLine(key))
            let replay = await reader.nextMessage(timeout: 60)
            #expect(
                replay?["result"] == result, "\(key) acknowledged \(result.jsonText), replayed \(replay?.jsonText ?? "nothing")")
        }
        reader.close()
        for gateway in gateways.dropFirst() {
            gateway.signal(SIGTERM)
            #expect(await gateway.waitForExit() == 0)
        }
        _ = balancer
    }
}
