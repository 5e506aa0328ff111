import PayRPCStore
import PayRPCSync
import PayRPCTestSupport
import PayRPCPostgres
import Testing
import PayRPCSQLite

/// Events a transaction publishes on a shared store reach the subscribers of every instance on
/// the database, once, after the commit, and never when it rolls back (the outbox and `NOTIFY`
/// that pushes across instances are made of).
@Suite("PostgreSQL store: events across instances")
struct PostgresEventTests {
    struct Refused: Error {}

    @Test func anEventCommittedOnOneInstanceReachesTheOtherOnceAndARolledBackOneNever() async throws {
        let factory = PostgresStoreFactory()
        let a = try await factory.makeStore(maximumBytes: nil)
        let b = try factory.openAnother(a)
        let received = Lock<[String]>([])
        let arrived = AsyncStream<String>.makeStream()
        let subscription = b.subscribe("pbba.paymentStatusChanged") { payload in
            received.withLock { $0.append(payload) }
            arrived.continuation.yield(payload)
        }
        // Rolled back: never delivered.
        await #expect(throws: Refused.self) {
            try await a.transaction("refused") { transaction in
                try transaction.publish("rolled back", on: "pbba.paymentStatusChanged")
                throw Refused()
            }
        }
        try await a.transaction("approve") { transaction in
            try transaction.publish(#"{"status":"completed"}"#, on: "pbba.paymentStatusChanged")
            try transaction.publish("elsewhere", on: "another.channel")
        }
        let first = await EventWait.value(timeout: 30) { () -> String? in
            var iterator = arrived.stream.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(first == #"{"status":"completed"}"#)
        // A later event arrives after it; nothing in between (the rolled-back one, a second copy).
        try await a.transaction("decline") { try $0.publish("second", on: "pbba.paymentStatusChanged") }
        let next = await EventWait.value(timeout: 30) { () -> String? in
            var iterator = arrived.stream.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(next == "second")
        #expect(received.withLock { $0 } == [#"{"status":"completed"}"#, "second"])
        subscription.cancel()
        try await factory.discard(b)
        try await factory.discard(a)
    }
}
