import PayRPCJSON
import PayRPCStore
import Testing

/// A body's own error, to tell it from the store's.
private struct Refused: Error, Equatable {}

@Suite("Transactions: several documents, one atomic write")
struct TransactionTests {
    @Test("reads see the body's own writes; every write is kept together; the result is returned")
    func readsOwnWrites() async throws {
        try await withStore { store, _ in
            let seen = try await store.transaction("test") { documents -> String? in
                try documents.put(Counter(count: 1, label: "a"), profile: "p", namespace: "n", key: "a")
                try documents.putText(profile: "p", namespace: "n", key: "b", text: #"{"count":2,"label":"b"}"#)
                try documents.delete(profile: "p", namespace: "n", key: "missing")
                return try documents.getText(profile: "p", namespace: "n", key: "b")
            }
            #expect(seen == #"{"count":2,"label":"b"}"#)
            #expect(try await store.get(Counter.self, profile: "p", namespace: "n", key: "a") == Counter(count: 1, label: "a"))
            #expect(try await store.get(Counter.self, profile: "p", namespace: "n", key: "b") == Counter(count: 2, label: "b"))
        }
    }

    @Test("a body that throws leaves no trace of the writes it made, and its error comes back as is")
    func throwingBodyKeepsNothing() async throws {
        try await withStore { store, _ in
            try await store.put(Counter(count: 1, label: "kept"), profile: "p", namespace: "n", key: "a")
            await #expect(throws: Refused()) {
                try await store.transaction("test") { documents in
                    try documents.update(Counter.self, profile: "p", namespace: "n", key: "a") { $0?.count = 99 }
                    try documents.put(Counter(count: 2, label: "new"), profile: "p", namespace: "n", key: "b")
                    throw Refused()
                }
            }
            #expect(try await store.get(Counter.self, profile: "p", namespace: "n", key: "a") == Counter(count: 1, label: "kept"))
            #expect(try await store.get(profile: "p", namespace: "n", key: "b") == nil)
        }
    }

    @Test("a bad key inside a body fails the body with invalidArgument, and nothing is kept")
    func badArgumentInsideBody() async throws {
        try await withStore { store, _ in
            do {
                try await store.transaction("test") { documents in
                    try documents.putText(profile: "p", namespace: "n", key: "ok", text: "1")
                    try documents.putText(profile: "p", namespace: "n", key: "", text: "2")
                }
                Issue.record("an empty key was accepted")
            } catch let error as StoreError {
                #expect(error.code == .invalidArgument)
            }
            #expect(try await store.get(profile: "p", namespace: "n", key: "ok") == nil)
        }
    }

    @Test("concurrent read-check-write transactions never both win: exactly one claims a key")
    func concurrentClaimsSerialize() async throws {
        try await withStore { store, _ in
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<32 {
                    group.addTask {
                        try await store.transaction("claim") { documents -> Bool in
                            guard try documents.getText(profile: "p", namespace: "claims", key: "code") == nil else { return false }
                            try documents.putText(profile: "p", namespace: "claims", key: "code", text: "\(index)")
                            try documents.putText(profile: "p", namespace: "owners", key: "\(index)", text: "true")
                            return true
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
            let owners = try await store.list(profile: "p", namespace: "owners", keyPrefix: nil)
            #expect(owners.count == 1)
            #expect(try await store.getText(profile: "p", namespace: "claims", key: "code") == owners.first?.key)
        }
    }
}
