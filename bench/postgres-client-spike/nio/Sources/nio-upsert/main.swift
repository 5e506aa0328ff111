// nio-upsert PORT CONNECTIONS SECONDS MODE
// MODE transaction: BEGIN; upsert; COMMIT, each awaited (postgres-nio sends one query at a time);
// MODE autocommit: the upsert alone (its own transaction, one round trip).
// Prints one JSON line: transactions, seconds, transactions per second, process CPU µs per transaction.
import Foundation
import Logging
import PostgresNIO

let arguments = CommandLine.arguments
let port = Int(arguments[1])!
let connections = Int(arguments[2])!
let seconds = Double(arguments[3])!
let mode = arguments[4]
let logger = Logger(label: "nio-upsert")
let configuration = PostgresConnection.Configuration(
    host: "127.0.0.1", port: port, username: "postgres", password: nil, database: "postgres", tls: .disable)
let value = String(repeating: "x", count: 300)

func cpuMicroseconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
}

var opened: [PostgresConnection] = []
for id in 0..<connections {
    opened.append(try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger))
}
let start = Date()
let cpuStart = cpuMicroseconds()
let deadline = start.addingTimeInterval(seconds)
let total = try await withThrowingTaskGroup(of: Int.self) { group in
    for connection in opened {
        group.addTask {
            var done = 0
            while Date() < deadline {
                let key = "k\(Int.random(in: 1...1_000_000))"
                if mode == "transaction" { try await connection.query("BEGIN", logger: logger) }
                try await connection.query(
                    """
                    INSERT INTO bench_document (profile, namespace, key, value, updated_at)
                    VALUES ('default', 'bench', \(key), \(value), 0)
                    ON CONFLICT (profile, namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                    """, logger: logger)
                if mode == "transaction" { try await connection.query("COMMIT", logger: logger) }
                done += 1
            }
            return done
        }
    }
    return try await group.reduce(0, +)
}
let elapsed = Date().timeIntervalSince(start)
let cpu = cpuMicroseconds() - cpuStart
for connection in opened { try await connection.closeGracefully() }
print(
    #"{"client":"postgres-nio","mode":"\#(mode)","connections":\#(connections),"transactions":\#(total),"#
        + #""seconds":\#(elapsed),"transactionsPerSecond":\#(Double(total) / elapsed),"#
        + #""cpuMicrosecondsPerTransaction":\#(cpu / Double(total))}"#)
