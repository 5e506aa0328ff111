import PayRPCJSON
import PayRPCStore
import Testing

@Suite("Profiles never see each other's documents")
struct ProfileIsolationTests {
    @Test("documents of one profile are invisible to the other, both ways")
    func isolation() async throws {
        try await withStore { store, _ in
            try await store.put(profile: "alice", namespace: "oneclick.cards", key: "card-1", value: "alice's")
            try await store.put(profile: "bob", namespace: "oneclick.cards", key: "card-2", value: "bob's")

            #expect(try await store.get(profile: "bob", namespace: "oneclick.cards", key: "card-1") == nil)
            #expect(try await store.get(profile: "alice", namespace: "oneclick.cards", key: "card-2") == nil)
            #expect(try await store.list(profile: "alice", namespace: "oneclick.cards", keyPrefix: nil).map(\.key) == ["card-1"])
            #expect(try await store.list(profile: "bob", namespace: "oneclick.cards", keyPrefix: nil).map(\.key) == ["card-2"])
            #expect(try await store.export(profile: "alice") == ["oneclick.cards": ["card-1": "alice's"]])
            #expect(try await store.export(profile: "bob") == ["oneclick.cards": ["card-2": "bob's"]])

            // The same key in both profiles holds two documents.
            try await store.put(profile: "alice", namespace: "tatra", key: "account", value: 1)
            try await store.put(profile: "bob", namespace: "tatra", key: "account", value: 2)
            try await store.delete(profile: "bob", namespace: "tatra", key: "account")
            #expect(try await store.get(profile: "alice", namespace: "tatra", key: "account") == 1)
            let aliceSees: JSONValue? = try await store.update(profile: "alice", namespace: "tatra", key: "account") {
                ($0, $0)
            }
            #expect(aliceSees == 1)
            let bobSees: Bool = try await store.update(profile: "bob", namespace: "tatra", key: "account") {
                ($0, $0 == nil)
            }
            #expect(bobSees)
        }
    }

    @Test("idempotency keys are per profile, both ways")
    func idempotencyIsolation() async throws {
        try await withStore { store, _ in
            #expect(try await store.claim(profile: "alice", key: "k", method: "m", paramsDigest: "d") == .claimed)
            #expect(try await store.claim(profile: "bob", key: "k", method: "other", paramsDigest: "x") == .claimed)
            try await store.complete(profile: "bob", key: "k", outcome: #""result":"bob""#)
            #expect(try await store.claim(profile: "alice", key: "k", method: "m", paramsDigest: "d") == .inProgress)
            try await store.complete(profile: "alice", key: "k", outcome: #""result":"alice""#)
            #expect(try await store.claim(profile: "alice", key: "k", method: "m", paramsDigest: "d")
                == .replay(outcome: #""result":"alice""#))
            #expect(try await store.claim(profile: "bob", key: "k", method: "other", paramsDigest: "x")
                == .replay(outcome: #""result":"bob""#))
        }
    }
}
