import Foundation
import Logging
import PayRPCJSON
import PayRPCServiceKit
import PayRPCStore
import PayRPCSync
import PayRPCTestSupport
import PayRPCSQLite
import Testing

/// The kit's outbox on a real SQLite store: items per profile, oldest first, changed one at a
/// time; and its delivery: one per item at a time, the waiting ones resent, a step that cannot be
/// recorded logged, and the items of every profile at start-up.
@Suite struct OutboxTests {
    @Test("bad input first: an unknown item reads nil and changes nothing; a stored item that does not decode fails by its key")
    func unknownAndBadItems() async throws {
        let store = try await SQLiteStoreFactory().makeStore(maximumBytes: nil)
        let outbox = Outbox<TestItem>(store: store)
        #expect(try await outbox.item("none", profile: "p") == nil)
        #expect(try await outbox.change("none", profile: "p") { $0.attempts += 1 } == nil)
        #expect(try await outbox.items(profile: "p").isEmpty)
        #expect(try await outbox.profiles().isEmpty)
        try await store.transaction("test") {
            try $0.put("not an item", profile: "p", namespace: TestItem.namespace, key: "bad")
        }
        await #expect(throws: StoreError.self) { try await outbox.items(profile: "p") }
        let error = await #expect(throws: StoreError.self) { try await outbox.item("bad", profile: "p") }
        #expect(error?.description.contains("bad") == true)
    }

    @Test("items are per profile, oldest first with ties by key; a change is written and comes back")
    func itemsAndChanges() async throws {
        let store = try await SQLiteStoreFactory().makeStore(maximumBytes: nil)
        let outbox = Outbox<TestItem>(store: store)
        try await store.add([TestItem("b", at: 2), TestItem("c", at: 1), TestItem("a", at: 2)], profile: "p")
        try await store.add([TestItem("z", at: 0)], profile: "q")
        #expect(try await outbox.items(profile: "p").map(\.key) == ["c", "a", "b"])
        #expect(try await outbox.profiles() == ["p", "q"])
        let changed = try await outbox.change("a", profile: "p") { $0.delivered = true }
        #expect(changed?.delivered == true && changed?.key == "a")
        #expect(try await outbox.item("a", profile: "p")?.delivered == true)
        #expect(try await outbox.item("a", profile: "q") == nil)
    }

    @Test("deliverWaiting sends only what is not delivered, oldest first, and answers the items as they are now")
    func deliverWaiting() async throws {
        let store = try await SQLiteStoreFactory().makeStore(maximumBytes: nil)
        try await store.add(
            [TestItem("late", at: 5), TestItem("early", at: 1), TestItem("done", at: 0, delivered: true)], profile: "p")
        let delivery = TestDelivery(store: store)
        let tried = try await delivery.deliverWaiting(profile: "p")
        #expect(tried.map(\.key) == ["early", "late"] && tried.allSatisfy { $0.delivered && $0.attempts == 1 })
        #expect(delivery.sent == ["p/early", "p/late"])
        #expect(try await delivery.deliverWaiting(profile: "p").isEmpty)
        #expect(delivery.runner.runningCount == 0)
    }

    @Test(
        "a step that cannot be recorded is logged and the item waits; at start-up every profile's items waiting then go, and none written since"
    )
    func failuresAndStartUp() async throws {
        let store = try await SQLiteStoreFactory().makeStore(maximumBytes: nil)
        try await store.add([TestItem("x", at: 1)], profile: "p")
        try await store.add([TestItem("y", at: 1), TestItem("sent", at: 0, delivered: true)], profile: "q")
        let delivery = TestDelivery(store: store, failing: ["x"])
        await delivery.deliver("x", profile: "p").value
        #expect(delivery.logged.count == 1 && delivery.logged.first?.contains("could not be recorded") == true)
        #expect(try await Outbox<TestItem>(store: store).item("x", profile: "p")?.delivered == false)
        delivery.failing = []
        let waiting = await delivery.waitingAtStartUp()
        #expect(waiting == ["p": ["x"], "q": ["y"]])
        // Written after the start-up read: its own delivery sends it, not the resend.
        try await store.add([TestItem("after", at: 2)], profile: "q")
        await delivery.resendAll(waiting)
        #expect(delivery.sent == ["p/x", "p/x", "q/y"])
        #expect(try await Outbox<TestItem>(store: store).item("y", profile: "q")?.delivered == true)
        #expect(try await Outbox<TestItem>(store: store).item("after", profile: "q")?.delivered == false)
    }
}

/// An outbox item with a hand-written codec, as the generated ones are.
struct TestItem: OutboxItem, Equatable {
    static let namespace = "test.outbox"
    var key: String
    var createdAt: Date
    var delivered: Bool
    var attempts: Int

    init(_ key: String, at seconds: Double, delivered: Bool = false) {
        self.key = key
        self.createdAt = Date(timeIntervalSince1970: 1_800_000_000 + seconds)
        self.delivered = delivered
        self.attempts = 0
    }

    var outboxKey: String { key }
    var isDelivered: Bool { delivered }

    init(json: JSONElement) throws(JSONDecodingError) {
        guard let key = json.member("key") else { throw .missing("key") }
        guard let createdAt = json.member("createdAt") else { throw .missing("createdAt") }
        guard let delivered = json.member("delivered") else { throw .missing("delivered") }
        guard let attempts = json.member("attempts") else { throw .missing("attempts") }
        do { self.key = try String(json: key) } catch { throw error.prefixed("key") }
        do { self.createdAt = try Date(json: createdAt) } catch { throw error.prefixed("createdAt") }
        do { self.delivered = try Bool(json: delivered) } catch { throw error.prefixed("delivered") }
        do { self.attempts = try Int(json: attempts) } catch { throw error.prefixed("attempts") }
    }

    func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("key", key)
        writer.member("createdAt", createdAt)
        writer.member("delivered", delivered)
        writer.member("attempts", attempts)
        writer.endObject()
    }
}

/// A delivery that records what it sent: each send counts an attempt and marks the item
/// delivered, unless its key is in `failing` (then the step throws, as a store failure would).
final class TestDelivery: OutboxDelivery {
    let outbox: Outbox<TestItem>
    let runner = DeliveryRunner()
    let logger: Logger
    /// One gateway on an embedded store: no tries across gateways.
    let shared: SharedDeliveries? = nil
    private let state = Lock<(sent: [String], failing: Set<String>)>(([], []))
    private let logs = CapturingLogHandler.Store()

    init(store: any StateStore, failing: Set<String> = []) {
        outbox = Outbox(store: store)
        logger = CapturingLogHandler.logger("outbox.tests", into: logs)
        state.withLock { $0.failing = failing }
    }

    var sent: [String] { state.withLock { $0.sent } }
    var failing: Set<String> {
        get { state.withLock { $0.failing } }
        set { state.withLock { $0.failing = newValue } }
    }
    var logged: [String] { logs.messages(atLeast: .error) }

    func send(_ key: String, profile: String, from first: Int, claims: DeliveryClaims?) async throws {
        let fails = state.withLock { state in
            state.sent.append(profile + "/" + key)
            return state.failing.contains(key)
        }
        if fails { throw StoreError(.corrupt, "the test's store refused \(key)") }
        try await outbox.change(key, profile: profile) { item in
            item.attempts += 1
            item.delivered = true
        }
    }
}

extension StateStore {
    /// Writes `items` to the test outbox of `profile` in one transaction.
    func add(_ items: [TestItem], profile: String) async throws {
        try await transaction("test.add") { documents in
            for item in items { try documents.put(item, profile: profile, namespace: TestItem.namespace, key: item.key) }
        }
    }
}
