import Foundation
import PayRPCJSON
import PayRPCStore
import Testing

/// A model with a hand-written codec, as the generated ones are.
struct Counter: JSONCodable, Equatable, Sendable {
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

@Suite("Documents: get, put, delete, list, update, export, reset")
struct DocumentTests {
    @Test("put then get returns the value; a missing key is nil; delete removes it")
    func putGetDelete() async throws {
        try await withStore { store, _ in
            #expect(try await store.get(profile: "p", namespace: "tatra", key: "a") == nil)
            let value: JSONValue = ["amount": "10.00", "items": [1, 2, ["nested": true]], "none": nil]
            try await store.put(profile: "p", namespace: "tatra", key: "a", value: value)
            #expect(try await store.get(profile: "p", namespace: "tatra", key: "a") == value)
            try await store.put(profile: "p", namespace: "tatra", key: "a", value: "replaced")
            #expect(try await store.get(profile: "p", namespace: "tatra", key: "a") == "replaced")
            try await store.delete(profile: "p", namespace: "tatra", key: "a")
            #expect(try await store.get(profile: "p", namespace: "tatra", key: "a") == nil)
            // Deleting what is not there is not an error.
            try await store.delete(profile: "p", namespace: "tatra", key: "a")
        }
    }

    @Test("numbers keep their exact text")
    func exactNumbers() async throws {
        try await withStore { store, _ in
            let value: JSONValue = ["big": .number("123456789012345678901234567890"), "small": .number("1.50")]
            try await store.put(profile: "p", namespace: "n", key: "k", value: value)
            #expect(try await store.get(profile: "p", namespace: "n", key: "k") == value)
        }
    }

    @Test("list is ordered by key and filters by prefix, literally")
    func listByPrefix() async throws {
        try await withStore { store, _ in
            for key in ["b1", "a2", "a%b", "a1", "c", "a_"] {
                try await store.put(profile: "p", namespace: "n", key: key, value: .string(key))
            }
            try await store.put(profile: "p", namespace: "other", key: "a0", value: 0)
            let all = try await store.list(profile: "p", namespace: "n", keyPrefix: nil)
            #expect(all.map(\.key) == ["a%b", "a1", "a2", "a_", "b1", "c"])
            #expect(all.allSatisfy { $0.value == .string($0.key) })
            let prefixed = try await store.list(profile: "p", namespace: "n", keyPrefix: "a")
            #expect(prefixed.map(\.key) == ["a%b", "a1", "a2", "a_"])
            #expect(try await store.list(profile: "p", namespace: "n", keyPrefix: "a%").map(\.key) == ["a%b"])
            #expect(try await store.list(profile: "p", namespace: "n", keyPrefix: "a_").map(\.key) == ["a_"])
            #expect(try await store.list(profile: "p", namespace: "n", keyPrefix: "zz").isEmpty)
        }
    }

    @Test("updatedAt comes from the configured clock")
    func updatedAt() async throws {
        let clock = TestClock()
        try await withStore(clock: clock) { store, _ in
            try await store.put(profile: "p", namespace: "n", key: "k", value: 1)
            let stored = try #require(try await store.list(profile: "p", namespace: "n", keyPrefix: nil).first)
            #expect(abs(stored.updatedAt.timeIntervalSince(clock.now)) < 0.002)
        }
    }

    @Test("update creates, changes, deletes and returns its result")
    func update() async throws {
        try await withStore { store, _ in
            let created: String = try await store.update(profile: "p", namespace: "n", key: "k") { current in
                (current == nil ? 1 : 99, "created")
            }
            #expect(created == "created")
            #expect(try await store.get(profile: "p", namespace: "n", key: "k") == 1)
            let deleted: Bool = try await store.update(profile: "p", namespace: "n", key: "k") { current in
                (nil, current == 1)
            }
            #expect(deleted)
            #expect(try await store.get(profile: "p", namespace: "n", key: "k") == nil)
        }
    }

    @Test("a transform that throws changes nothing and its error reaches the caller")
    func updateThrows() async throws {
        struct Refused: Error {}
        try await withStore { store, _ in
            try await store.put(profile: "p", namespace: "n", key: "k", value: 5)
            await #expect(throws: Refused.self) {
                try await store.update(profile: "p", namespace: "n", key: "k") { _ -> (JSONValue?, Void) in
                    throw Refused()
                }
            }
            #expect(try await store.get(profile: "p", namespace: "n", key: "k") == 5)
        }
    }

    @Test("typed get, put, list and update go through the project's codecs")
    func typed() async throws {
        try await withStore { store, _ in
            try await store.put(Counter(count: 1, label: "one"), profile: "p", namespace: "counters", key: "c")
            #expect(try await store.get(Counter.self, profile: "p", namespace: "counters", key: "c")
                == Counter(count: 1, label: "one"))
            #expect(try await store.get(profile: "p", namespace: "counters", key: "c") == ["count": 1, "label": "one"])
            let count = try await store.update(Counter.self, profile: "p", namespace: "counters", key: "c") { counter in
                counter?.count += 1
                return counter?.count ?? 0
            }
            #expect(count == 2)
            let listed = try await store.list(Counter.self, profile: "p", namespace: "counters")
            #expect(listed.map(\.key) == ["c"])
            #expect(listed.map(\.value) == [Counter(count: 2, label: "one")])

            try await store.put(profile: "p", namespace: "counters", key: "bad", value: ["count": "two", "label": "x"])
            do {
                _ = try await store.get(Counter.self, profile: "p", namespace: "counters", key: "bad")
                Issue.record("a document of the wrong shape decoded")
            } catch let error as StoreError {
                #expect(error.code == .invalidDocument)
                #expect(error.message.contains("/count"))
            }
        }
    }

    @Test("export gives {namespace: {key: value}} of one profile; reset empties only that profile")
    func exportAndReset() async throws {
        try await withStore { store, _ in
            try await store.put(profile: "alice", namespace: "tatra", key: "account", value: ["iban": "SK31"])
            try await store.put(profile: "alice", namespace: "pbba.requests", key: "r2", value: 2)
            try await store.put(profile: "alice", namespace: "pbba.requests", key: "r1", value: 1)
            try await store.put(profile: "bob", namespace: "tatra", key: "account", value: ["iban": "CZ65"])
            _ = try await store.claim(profile: "alice", key: "idem-1", method: "m", paramsDigest: "d")
            #expect(try await store.profiles() == ["alice", "bob"])

            let expected: JSONValue = [
                "pbba.requests": ["r1": 1, "r2": 2],
                "tatra": ["account": ["iban": "SK31"]],
            ]
            #expect(try await store.export(profile: "alice") == expected)
            #expect(try await store.export(profile: "nobody") == [:])

            try await store.reset(profile: "alice")
            #expect(try await store.export(profile: "alice") == [:])
            #expect(try await store.profiles() == ["bob"])
            #expect(try await store.claim(profile: "alice", key: "idem-1", method: "m", paramsDigest: "d") == .claimed)
            #expect(try await store.get(profile: "bob", namespace: "tatra", key: "account") == ["iban": "CZ65"])
        }
    }

    @Test("empty or oversized names are refused with invalidArgument")
    func invalidArguments() async throws {
        try await withStore { store, _ in
            #expect(await storeErrorCode { try await store.put(profile: "", namespace: "n", key: "k", value: 1) }
                == .invalidArgument)
            #expect(await storeErrorCode { try await store.put(profile: "p", namespace: "", key: "k", value: 1) }
                == .invalidArgument)
            #expect(await storeErrorCode { _ = try await store.get(profile: "p", namespace: "n", key: "") }
                == .invalidArgument)
            let long = String(repeating: "k", count: 1025)
            #expect(await storeErrorCode { try await store.delete(profile: "p", namespace: "n", key: long) }
                == .invalidArgument)
        }
    }

    @Test("a value that is not JSON is refused by the schema's constraint, failing only its own write")
    func constraintFailsOnlyItsWrite() async throws {
        try await withStore { store, _ in
            let outcomes = await withTaskGroup(of: (Int, StoreError.Code?).self) { group in
                for index in 0..<40 {
                    group.addTask {
                        let value: JSONValue = index == 20 ? .number("not a number") : .int(index)
                        let code = await storeErrorCode {
                            try await store.put(profile: "p", namespace: "n", key: "k\(index)", value: value)
                        }
                        return (index, code)
                    }
                }
                var outcomes: [Int: StoreError.Code?] = [:]
                for await (index, code) in group { outcomes[index] = code }
                return outcomes
            }
            #expect(outcomes[20] == .some(.constraint))
            #expect(outcomes.filter { $0.key != 20 }.allSatisfy { $0.value == nil })
            let keys = try await store.list(profile: "p", namespace: "n", keyPrefix: nil).map(\.key)
            #expect(keys.count == 39)
            #expect(!keys.contains("k20"))
            #expect(store.statistics.failedWrites == 1)
        }
    }
}
