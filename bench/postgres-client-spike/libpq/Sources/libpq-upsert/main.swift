// libpq-upsert PORT CONNECTIONS SECONDS MODE
// MODE pipeline: BEGIN; upsert (prepared); COMMIT sent together in pipeline mode, one round trip,
// as payrpc's PostgreSQL store sends a transaction; MODE sequential: the three, each awaited;
// MODE autocommit: the upsert alone. One thread a connection, blocking, as the store's pool.
// Prints one JSON line: transactions, seconds, transactions per second, process CPU µs per transaction.
import CLibPQ
import Foundation

let arguments = CommandLine.arguments
let port = arguments[1]
let connections = Int(arguments[2])!
let seconds = Double(arguments[3])!
let mode = arguments[4]
let value = String(repeating: "x", count: 300)
let upsert = """
    INSERT INTO bench_document (profile, namespace, key, value, updated_at) VALUES ('default', 'bench', $1, $2, 0)
    ON CONFLICT (profile, namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
    """

func cpuMicroseconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
}

func fail(_ connection: OpaquePointer?, _ what: String) -> Never {
    FileHandle.standardError.write("libpq-upsert: \(what): \(String(cString: PQerrorMessage(connection)))\n".data(using: .utf8)!)
    exit(1)
}

/// Takes the next result, which must have `status`, and clears it.
func expect(_ connection: OpaquePointer?, _ status: ExecStatusType, _ what: String) {
    guard let result = PQgetResult(connection) else { fail(connection, "\(what): no result") }
    if PQresultStatus(result) != status { fail(connection, "\(what): \(String(cString: PQresStatus(PQresultStatus(result))))") }
    PQclear(result)
}

func check(_ result: OpaquePointer?, _ connection: OpaquePointer?, _ what: String) {
    if PQresultStatus(result) != PGRES_COMMAND_OK { fail(connection, what) }
    PQclear(result)
}

var opened: [OpaquePointer?] = []
for _ in 0..<connections {
    let connection = PQconnectdb("host=127.0.0.1 port=\(port) user=postgres dbname=postgres")
    if PQstatus(connection) != CONNECTION_OK { fail(connection, "connect") }
    check(PQprepare(connection, "upsert", upsert, 2, nil), connection, "prepare")
    if mode == "pipeline" && PQenterPipelineMode(connection) != 1 { fail(connection, "pipeline mode") }
    opened.append(connection)
}
let counts = UnsafeMutablePointer<Int>.allocate(capacity: connections)
counts.initialize(repeating: 0, count: connections)
let group = DispatchGroup()
let start = Date()
let cpuStart = cpuMicroseconds()
let deadline = start.addingTimeInterval(seconds)
for (index, connection) in opened.enumerated() {
    group.enter()
    Thread {
        var done = 0
        while Date() < deadline {
            let key = "k\(Int.random(in: 1...1_000_000))"
            key.withCString { keyPointer in
                value.withCString { valuePointer in
                    let parameters: [UnsafePointer<CChar>?] = [keyPointer, valuePointer]
                    switch mode {
                    case "pipeline":
                        guard PQsendQueryParams(connection, "BEGIN", 0, nil, nil, nil, nil, 0) == 1,
                            PQsendQueryPrepared(connection, "upsert", 2, parameters, nil, nil, 0) == 1,
                            PQsendQueryParams(connection, "COMMIT", 0, nil, nil, nil, nil, 0) == 1,
                            PQpipelineSync(connection) == 1
                        else { fail(connection, "send") }
                        for what in ["BEGIN", "upsert", "COMMIT"] {
                            expect(connection, PGRES_COMMAND_OK, what)
                            if PQgetResult(connection) != nil { fail(connection, "\(what): a second result") }
                        }
                        expect(connection, PGRES_PIPELINE_SYNC, "sync")
                    case "sequential":
                        check(PQexec(connection, "BEGIN"), connection, "BEGIN")
                        check(PQexecPrepared(connection, "upsert", 2, parameters, nil, nil, 0), connection, "upsert")
                        check(PQexec(connection, "COMMIT"), connection, "COMMIT")
                    default:
                        check(PQexecPrepared(connection, "upsert", 2, parameters, nil, nil, 0), connection, "upsert")
                    }
                }
            }
            done += 1
        }
        counts[index] = done
        group.leave()
    }.start()
}
group.wait()
let elapsed = Date().timeIntervalSince(start)
let cpu = cpuMicroseconds() - cpuStart
let total = (0..<connections).reduce(0) { $0 + counts[$1] }
for connection in opened { PQfinish(connection) }
print(
    #"{"client":"libpq","mode":"\#(mode)","connections":\#(connections),"transactions":\#(total),"#
        + #""seconds":\#(elapsed),"transactionsPerSecond":\#(Double(total) / elapsed),"#
        + #""cpuMicrosecondsPerTransaction":\#(cpu / Double(total))}"#)
