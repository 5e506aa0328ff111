import PayRPCJSON
import PayRPCStore
import PayRPCTestSupport
import PayRPCSQLite
import Testing

@Suite("SQLite's own checks of what is written")
struct ConstraintTests {
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
            let keys = try await store.list(profile: "p", namespace: "n").map(\.key)
            #expect(keys.count == 39)
            #expect(!keys.contains("k20"))
            #expect(store.statistics.failedWrites == 1)
        }
    }
}
