import Foundation
import JournalService
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCStore
import PayRPCTestSupport
import Testing
import PayRPCPostgres
import PayRPCSecrets
import PayRPCSQLite

/// The journal on a store that gateways share (a throw-away PostgreSQL database, the kit's
/// `SharedDeliveries` on), against the test backend (a real HTTP server): the `/payments/` try
/// that was accepted, the payment's record (posted, its id) and the arming of the `/journals/`
/// POST's first try are one transaction, so no gateway can die between them and leave the
/// `/journals/` POST unarmed. Which transaction published each try's event is read from the
/// store's own `payrpc_event` rows (their `xmin`).
@Suite("journal delivery on a shared store")
struct SharedRecordTests {
    @Test("a record of the accepted payment that fails keeps nothing of the try: not counted, not announced made")
    func failedRecordKeepsNothing() async throws {
        let journal = try await SharedJournal()
        // What a gateway dying in that transaction leaves: the write of the payment posted fails.
        try await journal.psql(
            """
            CREATE FUNCTION refuse_posted() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'the test refuses the payment posted'; END $$;
            CREATE TRIGGER refuse_posted BEFORE INSERT OR UPDATE ON payrpc_document FOR EACH ROW
            WHEN (NEW.namespace = 'journal.entries' AND position('"paymentPosted":true' in NEW.value) > 0)
            EXECUTE FUNCTION refuse_posted();
            """)
        let client = journal.connect()
        let entry = try await client.cardPayment()
        let id = try #require(entry["entryId"]?.stringValue)
        #expect(try await journal.backend.requests().map { $0["path"] as? String } == ["/payments/"])
        #expect(entry["delivery"]?["paymentPosted"] == false)
        #expect(entry["delivery"]?["attempts"] == 0)
        // The first try, armed when the entry was saved, was never announced made: a gateway
        // waiting for it claims it and makes it (its claim was given up), rather than stopping
        // at a "made" with the /journals/ POST unarmed.
        let events = try await journal.tryEvents()
        #expect(events.map(\.claim) == ["journal.entries:\(id):first"] && events.allSatisfy { !$0.made })
        let first = try #require(events.first)
        let survivor = try journal.factory.openAnother(journal.store)
        #expect(
            try await survivor.claim(profile: first.profile, key: first.claim, method: "outbox.try", paramsDigest: id)
                == .claimed)
        try await survivor.close()
        #expect(journal.logs.messages(atLeast: .error).contains { $0.contains("could not be recorded") })
        try await journal.close()
    }

    @Test("the accepted /payments/ try is announced made in the transaction that arms the /journals/ POST's first try")
    func acceptedTryArmsJournalsInOneCommit() async throws {
        let journal = try await SharedJournal()
        let client = journal.connect()
        let entry = try await client.cardPayment()
        let id = try #require(entry["entryId"]?.stringValue)
        #expect(entry["delivery"]?["status"] == "delivered" && entry["delivery"]?["attempts"] == 2)
        #expect(
            try await journal.backend.requests().map { $0["path"] as? String } == ["/payments/", "/journals/"])
        let events = try await journal.tryEvents()
        // Armed at the save, made with the payment's record; the /journals/ try armed, then made.
        try #require(events.count == 4)
        #expect(events.map(\.made) == [false, true, false, true])
        #expect(events[0].claim == "journal.entries:\(id):first" && events[1].claim == events[0].claim)
        #expect(events[2].claim.hasPrefix("journal.entries:\(id):0:") && events[3].claim == events[2].claim)
        #expect(events[1].transaction == events[2].transaction)
        #expect(Set(events.map(\.transaction)).count == 3)
        // The accepted /journals/ try ends the delivery in the transaction that announces it made:
        // the entry's last write is that one.
        #expect(try await journal.lastWrite(ofEntry: id) == events[3].transaction)
        #expect(journal.logs.messages(atLeast: .error).isEmpty)
        try await journal.close()
    }

    @Test("a cash payment is delivered in the transaction that announces its only POST made")
    func acceptedCashTryDeliversInOneCommit() async throws {
        let journal = try await SharedJournal()
        let client = journal.connect()
        let entry = try await client.call("journal.pay", ["type": "cash", "amount": "100"])["entry"]
        let id = try #require(entry?["entryId"]?.stringValue)
        #expect(entry?["delivery"]?["status"] == "delivered" && entry?["delivery"]?["attempts"] == 1)
        #expect(try await journal.backend.requests().map { $0["path"] as? String } == ["/payments/"])
        let events = try await journal.tryEvents()
        try #require(events.count == 2)
        #expect(events.map(\.made) == [false, true])
        #expect(try await journal.lastWrite(ofEntry: id) == events[1].transaction)
        #expect(journal.logs.messages(atLeast: .error).isEmpty)
        try await journal.close()
    }
}

/// One gateway's journal on a new database of the process's throw-away PostgreSQL cluster, as
/// `payrpc serve --store postgresql://…` runs it (other gateways may share the store), with the
/// test backend as the server's backend.
private final class SharedJournal: Sendable {
    let store: PostgresStateStore
    let backend: JournalBackend
    let harness: EngineHarness
    let cluster: PostgresTestCluster
    /// The store's key: another gateway's store opens with it.
    let factory = PostgresStoreFactory()
    /// What the journal logged.
    let logs = CapturingLogHandler.Store()

    /// An event on the outbox tries' channel: the claim it names (and its profile), whether it
    /// says made, and the transaction that published it.
    struct TryEvent: Equatable {
        var claim: String
        var profile: String
        var made: Bool
        var transaction: String
    }

    init() async throws {
        cluster = try await PostgresTestCluster.shared()
        store = try factory.open(try await cluster.createDatabase(prefix: "journal_shared"), maximumBytes: nil)
        backend = try await JournalBackend()
        let sandbox = SandboxControls(seed: 5)
        // Across gateways: a network retry is armed durably (the kit's `SharedDeliveries`).
        let connections = ConnectionDirectory(acrossGateways: true)
        var configuration = EngineConfiguration()
        configuration.sandbox = true
        var settings = ServiceSettings()
        settings.backend = backend.baseURL
        settings.webAPITimeout = 30
        settings.retryBackoff = [.milliseconds(10)]
        let service = JournalService(
            context: ServiceContext(
                store: store, secrets: store.secrets, sandbox: sandbox, connections: connections, settings: settings,
                logger: CapturingLogHandler.logger("journal.shared", into: logs)))
        harness = try EngineHarness(services: [service], configuration: configuration, sandbox: sandbox, connections: connections)
    }

    /// Closes the store and drops its database (left to the cluster's removal when a test stops
    /// before).
    func close() async throws {
        try await store.close()
        await cluster.dropDatabase(store.url.database)
    }

    func connect() -> TestConnection { harness.connect(keepingAlive: self) }

    /// Runs `sql` in the store's database.
    func psql(_ sql: String) async throws {
        try await cluster.psql(sql, database: store.url.database)
    }

    /// The transaction that last wrote the entry `id`'s document (its row's `xmin`).
    func lastWrite(ofEntry id: String) async throws -> String {
        try await cluster.psql(
            "SELECT xmin::text FROM payrpc_document WHERE namespace = 'journal.entries' AND key = '\(id)'",
            database: store.url.database
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every event published on the outbox tries' channel, in order.
    func tryEvents() async throws -> [TryEvent] {
        let rows = try await cluster.psql(
            """
            SELECT xmin::text, payload::jsonb->>'claim', payload::jsonb->>'made', payload::jsonb->>'profile'
            FROM payrpc_event
            WHERE channel = '\(SharedDeliveries.channel)' ORDER BY seq
            """, database: store.url.database)
        return rows.split(separator: "\n").map { row in
            let fields = row.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return TryEvent(claim: fields[1], profile: fields[3], made: fields[2] == "true", transaction: fields[0])
        }
    }
}
