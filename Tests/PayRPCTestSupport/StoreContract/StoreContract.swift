import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCStore
import Testing

/// What every ``StateStore`` promises, as tests any implementation runs: give it a factory and
/// run each ``Clause`` (`@Test(arguments: StoreContract<MyFactory>.clauses)`).
///
/// Transactions are atomic and roll back on a thrown error; concurrent read-check-write
/// transactions serialize; profiles never see each other's documents or idempotency keys;
/// idempotency keys claim, replay and conflict; a full store refuses the write that does not fit
/// and keeps everything else; what was acknowledged survives a crash, and claims in progress do
/// not. Names are checked the same way everywhere.
public struct StoreContract<Factory: StateStoreFactory>: Sendable {
    let factory: Factory

    /// The contract over the stores `factory` makes.
    public init(_ factory: Factory) {
        self.factory = factory
    }

    /// One promise of the contract, named for the test report.
    public struct Clause: Sendable, CustomTestStringConvertible {
        /// What the clause promises.
        public let name: String
        let body: @Sendable (StoreContract) async throws -> Void

        /// Checks the clause on a store `contract`'s factory makes.
        /// - Throws: what the store throws unexpectedly.
        public func check(_ contract: StoreContract) async throws { try await body(contract) }

        public var testDescription: String { name }
    }

    /// Every clause of the contract.
    public static var clauses: [Clause] {
        [
            Clause(name: "a transaction reads its own writes and keeps them together") { try await $0.readsOwnWrites() },
            Clause(name: "a body that throws leaves no trace") { try await $0.throwingBodyKeepsNothing() },
            Clause(name: "concurrent read-check-write transactions serialize") { try await $0.concurrentClaimsSerialize() },
            Clause(name: "list is ordered by key and filters by prefix literally") { try await $0.listByPrefix() },
            Clause(name: "typed documents decode and change in place, and a wrong shape names its pointer") {
                try await $0.typedDocuments()
            },
            Clause(name: "profiles never see each other's documents") { try await $0.profileIsolation() },
            Clause(name: "reset empties one profile, export shows one") { try await $0.exportAndReset() },
            Clause(name: "bad names are refused with invalidArgument") { try await $0.invalidNames() },
            Clause(name: "idempotency keys claim, replay, conflict, per profile") { try await $0.idempotencyKeys() },
            Clause(name: "a claim made in a transaction holds from its commit, and not when it rolls back") {
                try await $0.claimsInTransactions()
            },
            Clause(name: "a full store refuses what does not fit and keeps the rest") { try await $0.storeFull() },
            Clause(name: "acknowledged writes survive a crash; claims in progress do not") { try await $0.crashAndReopen() },
            Clause(name: "a subscription hears what commits on its channel until it is cancelled") {
                try await $0.subscriptionsEndWhenCancelled()
            },
        ]
    }

    /// Two subscribers of one channel hear a committed event; once the first is cancelled, only the
    /// second hears the next (awaited: a shared store delivers after its notification arrives).
    func subscriptionsEndWhenCancelled() async throws {
        try await withStore { store in
            let first = AsyncStream<String>.makeStream()
            let second = AsyncStream<String>.makeStream()
            let cancelled = store.subscribe("contract.events") { first.continuation.yield($0) }
            let kept = store.subscribe("contract.events") { second.continuation.yield($0) }
            /// The next event `stream` hears (nil: none within `timeout` seconds, or the stream ended).
            func next(_ stream: AsyncStream<String>, timeout: Double = 30) async -> String? {
                await EventWait.value(timeout: timeout) { () -> String? in
                    var iterator = stream.makeAsyncIterator()
                    return await iterator.next()
                } ?? nil
            }
            // Published again until heard: a shared store's listener may connect after the first.
            var heard: String? = nil
            for _ in 0..<10 where heard == nil {
                try await store.transaction("contract.publish") { try $0.publish("one", on: "contract.events") }
                heard = await next(first.stream, timeout: 3)
            }
            #expect(heard == "one")
            #expect(await next(second.stream) == "one")
            cancelled.cancel()
            cancelled.cancel()  // a second cancel does nothing
            try await store.transaction("contract.publish") { try $0.publish("two", on: "contract.events") }
            var secondHeard: [String] = []
            while secondHeard.last != "two", secondHeard.count < 12, let event = await next(second.stream) {
                secondHeard.append(event)
            }
            #expect(secondHeard.last == "two")
            // Delivered to the kept subscriber, so a first one still subscribed would have had it too.
            first.continuation.finish()
            var firstLeft: [String] = []
            while firstLeft.count < 12, let event = await next(first.stream) { firstLeft.append(event) }
            #expect(!firstLeft.contains("two"), "\(firstLeft)")
            kept.cancel()
        }
    }

    /// Runs `body` on a new store and discards the store afterwards, also when `body` throws.
    func withStore(maximumBytes: Int64? = nil, _ body: (Factory.Store) async throws -> Void) async throws {
        let store = try await factory.makeStore(maximumBytes: maximumBytes)
        do {
            try await body(store)
        } catch {
            try? await factory.discard(store)
            throw error
        }
        try await factory.discard(store)
    }

    // MARK: Transactions

    func readsOwnWrites() async throws {
        try await withStore { store in
            let seen = try await store.transaction("contract") { documents -> ContractCounter? in
                try documents.put(ContractCounter(count: 1, label: "a"), profile: "p", namespace: "n", key: "a")
                try documents.put(ContractCounter(count: 2, label: "b"), profile: "p", namespace: "n", key: "b")
                try documents.delete(profile: "p", namespace: "n", key: "missing")
                try documents.update(ContractCounter.self, profile: "p", namespace: "n", key: "b") { $0?.count += 1 }
                return try documents.get(ContractCounter.self, profile: "p", namespace: "n", key: "b")
            }
            #expect(seen == ContractCounter(count: 3, label: "b"))
            let stored = try await store.read("contract") { documents in
                try documents.list(ContractCounter.self, profile: "p", namespace: "n").map(\.value)
            }
            #expect(stored == [ContractCounter(count: 1, label: "a"), ContractCounter(count: 3, label: "b")])
            // update with nil deletes; a default makes the document.
            try await store.transaction("contract") { documents in
                try documents.update(ContractCounter.self, profile: "p", namespace: "n", key: "a") { $0 = nil }
                try documents.update(
                    ContractCounter.self, profile: "p", namespace: "n", key: "c",
                    default: ContractCounter(count: 0, label: "c")
                ) { $0.count += 5 }
            }
            #expect(try await store.read("contract") { try $0.contains(profile: "p", namespace: "n", key: "a") } == false)
            #expect(try await Self.counter(store, "c") == ContractCounter(count: 5, label: "c"))
        }
    }

    func throwingBodyKeepsNothing() async throws {
        try await withStore { store in
            try await Self.put(store, "a", ContractCounter(count: 1, label: "kept"))
            await #expect(throws: ContractRefusal()) {
                try await store.transaction("contract") { documents in
                    try documents.update(ContractCounter.self, profile: "p", namespace: "n", key: "a") { $0?.count = 99 }
                    try documents.put(ContractCounter(count: 2, label: "new"), profile: "p", namespace: "n", key: "b")
                    throw ContractRefusal()
                }
            }
            #expect(try await Self.counter(store, "a") == ContractCounter(count: 1, label: "kept"))
            #expect(try await Self.counter(store, "b") == nil)
            // A store error inside the body rolls back the same way.
            do {
                try await store.transaction("contract") { documents in
                    try documents.put(ContractCounter(count: 3, label: "ok"), profile: "p", namespace: "n", key: "ok")
                    try documents.put(ContractCounter(count: 4, label: "bad"), profile: "p", namespace: "n", key: "")
                }
                Issue.record("an empty key was accepted")
            } catch let error as StoreError {
                #expect(error.code == .invalidArgument)
            }
            #expect(try await Self.counter(store, "ok") == nil)
        }
    }

    func concurrentClaimsSerialize() async throws {
        try await withStore { store in
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<32 {
                    group.addTask {
                        try await store.transaction("claim") { documents -> Bool in
                            guard try !documents.contains(profile: "p", namespace: "claims", key: "code") else { return false }
                            try documents.put(index, profile: "p", namespace: "claims", key: "code")
                            try documents.put(true, profile: "p", namespace: "owners", key: "\(index)")
                            return true
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
            let (owners, claimed) = try await store.read("contract") { documents in
                (
                    try documents.list(Bool.self, profile: "p", namespace: "owners").map(\.key),
                    try documents.get(Int.self, profile: "p", namespace: "claims", key: "code")
                )
            }
            #expect(owners.count == 1)
            #expect(owners.first == claimed.map(String.init))
        }
    }

    // MARK: Documents

    func listByPrefix() async throws {
        try await withStore { store in
            try await store.transaction("contract") { documents in
                for key in ["b1", "a2", "a%b", "a1", "c", "a_"] {
                    try documents.put(key, profile: "p", namespace: "n", key: key)
                }
                try documents.put("other", profile: "p", namespace: "other", key: "a0")
            }
            try await store.read("contract") { (documents: StoreReader) throws -> Void in
                let all = try documents.list(String.self, profile: "p", namespace: "n")
                #expect(all.map(\.key) == ["a%b", "a1", "a2", "a_", "b1", "c"])
                #expect(all.allSatisfy { $0.value == $0.key })
                #expect(
                    try documents.list(String.self, profile: "p", namespace: "n", keyPrefix: "a").map(\.key)
                        == ["a%b", "a1", "a2", "a_"])
                #expect(try documents.list(String.self, profile: "p", namespace: "n", keyPrefix: "a%").map(\.key) == ["a%b"])
                #expect(try documents.list(String.self, profile: "p", namespace: "n", keyPrefix: "a_").map(\.key) == ["a_"])
                #expect(try documents.list(String.self, profile: "p", namespace: "n", keyPrefix: "zz").isEmpty)
                #expect(try documents.profiles(withDocumentsIn: "n") == ["p"])
            }
        }
    }

    func typedDocuments() async throws {
        try await withStore { store in
            let exact: JSONValue = [
                "big": .number("123456789012345678901234567890"), "small": .number("1.50"),
                "items": [1, ["nested": true]], "none": nil,
            ]
            try await store.transaction("contract") { documents in
                try documents.put(exact, profile: "p", namespace: "n", key: "exact")
                try documents.put(["count": "two", "label": "x"] as JSONValue, profile: "p", namespace: "n", key: "bad")
            }
            #expect(
                try await store.read("contract") { try $0.get(JSONValue.self, profile: "p", namespace: "n", key: "exact") }
                    == exact)
            let changed = try await store.transaction("contract") { documents in
                (
                    try documents.change(JSONValue.self, profile: "p", namespace: "n", key: "exact") { $0 = ["changed": true] },
                    try documents.change(JSONValue.self, profile: "p", namespace: "n", key: "absent") { $0 = ["made": true] }
                )
            }
            #expect(changed.0 == ["changed": true] && changed.1 == nil)
            #expect(
                try await store.read("contract") { try $0.get(JSONValue.self, profile: "p", namespace: "n", key: "exact") } == [
                    "changed": true
                ])
            #expect(try await store.read("contract") { try $0.contains(profile: "p", namespace: "n", key: "absent") } == false)
            do {
                _ = try await Self.counter(store, "bad")
                Issue.record("a document of the wrong shape decoded")
            } catch let error as StoreError {
                #expect(error.code == .invalidDocument)
                #expect(error.message.contains("/count"))
            }
        }
    }

    func profileIsolation() async throws {
        try await withStore { store in
            try await store.transaction("contract") { documents in
                try documents.put("alice's", profile: "alice", namespace: "cards", key: "card-1")
                try documents.put("bob's", profile: "bob", namespace: "cards", key: "card-2")
                try documents.put(1, profile: "alice", namespace: "account", key: "a")
                try documents.put(2, profile: "bob", namespace: "account", key: "a")
                try documents.delete(profile: "bob", namespace: "account", key: "a")
            }
            try await store.read("contract") { (documents: StoreReader) throws -> Void in
                #expect(try documents.get(String.self, profile: "bob", namespace: "cards", key: "card-1") == nil)
                #expect(try documents.get(String.self, profile: "alice", namespace: "cards", key: "card-2") == nil)
                #expect(try documents.list(String.self, profile: "alice", namespace: "cards").map(\.key) == ["card-1"])
                #expect(try documents.list(String.self, profile: "bob", namespace: "cards").map(\.key) == ["card-2"])
                #expect(try documents.get(Int.self, profile: "alice", namespace: "account", key: "a") == 1)
                #expect(try documents.get(Int.self, profile: "bob", namespace: "account", key: "a") == nil)
                #expect(try documents.profiles(withDocumentsIn: "cards") == ["alice", "bob"])
            }
        }
    }

    func exportAndReset() async throws {
        try await withStore { store in
            try await store.transaction("contract") { documents in
                try documents.put(["iban": "SK31"] as JSONValue, profile: "alice", namespace: "tatra", key: "account")
                try documents.put(2, profile: "alice", namespace: "pbba.requests", key: "r2")
                try documents.put(1, profile: "alice", namespace: "pbba.requests", key: "r1")
                try documents.put(["iban": "CZ65"] as JSONValue, profile: "bob", namespace: "tatra", key: "account")
            }
            _ = try await store.claim(profile: "alice", key: "idem-1", method: "m", paramsDigest: "d")
            #expect(try await store.profiles() == ["alice", "bob"])
            #expect(
                try await store.export(profile: "alice") == [
                    "pbba.requests": ["r1": 1, "r2": 2], "tatra": ["account": ["iban": "SK31"]],
                ])
            #expect(try await store.export(profile: "nobody") == [:])
            try await store.reset(profile: "alice")
            #expect(try await store.export(profile: "alice") == [:])
            #expect(try await store.profiles() == ["bob"])
            #expect(try await store.claim(profile: "alice", key: "idem-1", method: "m", paramsDigest: "d") == .claimed)
            #expect(try await store.export(profile: "bob") == ["tatra": ["account": ["iban": "CZ65"]]])
        }
    }

    func invalidNames() async throws {
        try await withStore { store in
            let long = String(repeating: "k", count: 1025)
            for (profile, namespace, key) in [
                ("", "n", "k"), ("p", "", "k"), ("p", "n", ""), ("p", "n", long), ("p\u{0}", "n", "k"),
            ] {
                let code = await storeErrorCode {
                    try await store.transaction("contract") { try $0.put(1, profile: profile, namespace: namespace, key: key) }
                }
                #expect(code == .invalidArgument, "profile \(profile.count) namespace \(namespace) key \(key.count)")
                let readCode = await storeErrorCode {
                    _ = try await store.read("contract") {
                        try $0.get(Int.self, profile: profile, namespace: namespace, key: key)
                    }
                }
                #expect(readCode == .invalidArgument)
            }
        }
    }

    // MARK: Idempotency

    func idempotencyKeys() async throws {
        try await withStore { store in
            #expect(try await store.claim(profile: "alice", key: "k", method: "m", paramsDigest: "d") == .claimed)
            #expect(try await store.claim(profile: "alice", key: "k", method: "m", paramsDigest: "d") == .inProgress)
            #expect(try await store.claim(profile: "bob", key: "k", method: "other", paramsDigest: "x") == .claimed)
            try await store.complete(profile: "bob", key: "k", outcome: #""result":"bob""#)
            try await store.complete(profile: "alice", key: "k", outcome: #""result":"alice""#)
            #expect(
                try await store.claim(profile: "alice", key: "k", method: "m", paramsDigest: "d")
                    == .replay(outcome: #""result":"alice""#))
            #expect(try await store.claim(profile: "alice", key: "k", method: "m", paramsDigest: "changed") == .conflict)
            #expect(try await store.claim(profile: "alice", key: "k", method: "n", paramsDigest: "d") == .conflict)
            #expect(
                try await store.claim(profile: "bob", key: "k", method: "other", paramsDigest: "x")
                    == .replay(outcome: #""result":"bob""#))
            // Abandon forgets a claim in progress, never a completed key.
            #expect(try await store.claim(profile: "alice", key: "left", method: "m", paramsDigest: "d") == .claimed)
            try await store.abandon(profile: "alice", key: "left")
            #expect(try await store.claim(profile: "alice", key: "left", method: "m", paramsDigest: "d") == .claimed)
            try await store.abandon(profile: "alice", key: "k")
            #expect(
                try await store.claim(profile: "alice", key: "k", method: "m", paramsDigest: "d")
                    == .replay(outcome: #""result":"alice""#))
            // Concurrent claims of one key: exactly one wins.
            let claims = try await withThrowingTaskGroup(of: IdempotencyClaim.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await store.claim(profile: "p", key: "race", method: "m", paramsDigest: "d") }
                }
                return try await group.reduce(into: [IdempotencyClaim]()) { $0.append($1) }
            }
            #expect(claims.filter { $0 == .claimed }.count == 1)
            #expect(claims.filter { $0 == .inProgress }.count == 15)
        }
    }

    /// A key claimed with a transaction's writes is in progress once it commits (and completes
    /// and replays as any claim); a claim in a body that throws was never made; a claim in a
    /// transaction replaces an earlier claim of the key.
    func claimsInTransactions() async throws {
        try await withStore { store in
            try await store.transaction("contract") { documents in
                try documents.put(ContractCounter(count: 1, label: "item"), profile: "p", namespace: "n", key: "item")
                try documents.claim(profile: "p", key: "try", method: "m", paramsDigest: "item")
            }
            #expect(try await store.claim(profile: "p", key: "try", method: "m", paramsDigest: "item") == .inProgress)
            try await store.complete(profile: "p", key: "try", outcome: #""result":"made""#)
            #expect(
                try await store.claim(profile: "p", key: "try", method: "m", paramsDigest: "item")
                    == .replay(outcome: #""result":"made""#))
            #expect(try await store.claim(profile: "p", key: "try", method: "m", paramsDigest: "other") == .conflict)
            await #expect(throws: ContractRefusal()) {
                try await store.transaction("contract") { documents in
                    try documents.claim(profile: "p", key: "rolled back", method: "m", paramsDigest: "d")
                    throw ContractRefusal()
                }
            }
            #expect(try await store.claim(profile: "p", key: "rolled back", method: "m", paramsDigest: "d") == .claimed)
            try await store.transaction("contract") { documents in
                try documents.claim(profile: "p", key: "rolled back", method: "m", paramsDigest: "again")
            }
            #expect(try await store.claim(profile: "p", key: "rolled back", method: "m", paramsDigest: "again") == .inProgress)
            await #expect(throws: StoreError.self) {
                try await store.transaction("contract") { documents in
                    try documents.claim(profile: "p", key: "", method: "m", paramsDigest: "d")
                }
            }
        }
    }

    // MARK: Full, crash

    /// A document that takes pages of its own, so that every new one grows the store.
    static var blob: String { String(repeating: "x", count: 3000) }

    func storeFull() async throws {
        let limit: Int64 = 128 * 1024
        try await withStore(maximumBytes: limit) { store in
            var acknowledged: [String] = []
            var refusal: StoreError?
            for index in 0..<10_000 where refusal == nil {
                do {
                    try await store.transaction("contract") {
                        try $0.put(Self.blob, profile: "p", namespace: "n", key: "big\(index)")
                    }
                    acknowledged.append("big\(index)")
                } catch let error as StoreError {
                    refusal = error
                }
            }
            #expect(refusal?.code == .full)
            #expect(refusal?.rpcError.code == .storeFull)
            #expect(acknowledged.count > 5)
            // A transaction that does not fit keeps none of its writes.
            let code = await storeErrorCode {
                try await store.transaction("contract") { documents in
                    try documents.put("small", profile: "p", namespace: "n", key: "small")
                    try documents.put(Self.blob, profile: "p", namespace: "n", key: "one-more")
                }
            }
            #expect(code == .full)
            let (small, keys) = try await store.read("contract") { documents in
                (
                    try documents.get(String.self, profile: "p", namespace: "n", key: "small"),
                    try documents.list(String.self, profile: "p", namespace: "n").map(\.key)
                )
            }
            #expect(small == nil)
            #expect(keys.sorted() == acknowledged.sorted())
            // Deletes free room at once.
            let freed = Array(acknowledged.prefix(3))
            try await store.transaction("contract") { documents in
                for key in freed { try documents.delete(profile: "p", namespace: "n", key: key) }
            }
            try await store.transaction("contract") { try $0.put(Self.blob, profile: "p", namespace: "n", key: "after-delete") }
        }
    }

    func crashAndReopen() async throws {
        var store = try await factory.makeStore(maximumBytes: nil)
        do {
            for index in 0..<50 {
                try await store.transaction("contract") { documents in
                    try documents.put(ContractCounter(count: index, label: "c"), profile: "p", namespace: "n", key: "k\(index)")
                    try documents.update(Int.self, profile: "p", namespace: "n", key: "total", default: 0) { $0 += index }
                }
            }
            _ = try await store.claim(profile: "p", key: "done", method: "m", paramsDigest: "d")
            try await store.complete(profile: "p", key: "done", outcome: #""result":1"#)
            _ = try await store.claim(profile: "p", key: "running", method: "m", paramsDigest: "d")
            store = try await factory.reopenAfterCrash(store)
            let (keys, total) = try await store.read("contract") { documents in
                (
                    try documents.list(ContractCounter.self, profile: "p", namespace: "n", keyPrefix: "k").count,
                    try documents.get(Int.self, profile: "p", namespace: "n", key: "total")
                )
            }
            #expect(keys == 50)
            #expect(total == (0..<50).reduce(0, +))
            #expect(
                try await store.claim(profile: "p", key: "done", method: "m", paramsDigest: "d")
                    == .replay(outcome: #""result":1"#))
            #expect(try await store.claim(profile: "p", key: "running", method: "m", paramsDigest: "d") == .claimed)
        } catch {
            try? await factory.discard(store)
            throw error
        }
        try await factory.discard(store)
    }

    // MARK: Helpers

    static func put(_ store: Factory.Store, _ key: String, _ counter: ContractCounter) async throws {
        try await store.transaction("contract") { try $0.put(counter, profile: "p", namespace: "n", key: key) }
    }

    static func counter(_ store: Factory.Store, _ key: String) async throws -> ContractCounter? {
        try await store.read("contract") { try $0.get(ContractCounter.self, profile: "p", namespace: "n", key: key) }
    }
}

/// A body's own error, to tell it from the store's.
struct ContractRefusal: Error, Equatable {}

/// A document with a hand-written codec, as the generated ones are.
struct ContractCounter: JSONCodable, Equatable, Sendable {
    var count: Int
    var label: String

    init(count: Int, label: String) {
        self.count = count
        self.label = label
    }

    init(json: JSONElement) throws(JSONDecodingError) {
        guard let count = json.member("count") else { throw .missing("count") }
        guard let label = json.member("label") else { throw .missing("label") }
        do { self.count = try Int(json: count) } catch { throw error.prefixed("count") }
        do { self.label = try String(json: label) } catch { throw error.prefixed("label") }
    }

    func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("count", count)
        writer.member("label", label)
        writer.endObject()
    }
}
