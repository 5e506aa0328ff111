import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `payrpc calls`, the spawned binary against a spawned gateway: the journal's lines readable and
/// as the gateway's JSON, every page, `--follow` with what another connection does, `--profile`,
/// and the ways it refuses or fails.
@Suite struct CallsCommandTests {
    /// The gateway's frozen sandbox clock.
    static let clock = "2026-11-25T10:40:00Z"

    /// Starts `payrpc serve` on a free loopback port (with `extra`) and returns it and its address.
    func gateway(_ extra: [String] = [], listen: [String] = ["--tcp", "127.0.0.1:0"]) async throws -> (SpawnedServer, String) {
        let server = try await SpawnedServer(["serve"] + listen + ["--frozen-clock", Self.clock] + extra)
        let address = try #require(await server.listeningAddress())
        return (server, address)
    }

    /// Runs `payrpc calls` with `arguments` to its end (answers awaited as long as a loaded machine
    /// needs: the user's default is 30 s).
    func calls(_ arguments: [String]) async throws -> ChildRun.Result {
        try await ChildRun.run(SpawnedServer.binary, ["calls"] + arguments + ["--timeout", "600"], timeout: 700)
    }

    /// Sends `line` and returns the answer.
    func call(_ client: SocketClient, _ line: String) async throws -> JSONValue {
        client.sendLine(line)
        return try #require(await client.nextMessage(timeout: 120))
    }

    /// Readable lines with what changes from run to run written as `T` (the time: the journal's
    /// sandbox times run on from the frozen clock by the real time a connection's read took) and
    /// `D ms` (the durations).
    func steady(_ output: String) -> [String] {
        output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            String(line)
                .replacing(/^\d\d:\d\d:\d\d\.\d\d\d/, with: "T")
                .replacing(#/  \d+\.\d\d ms/#, with: "  D ms")
        }
    }

    /// The entries of the gateway's own `sandbox.calls.list` answer, each as the text it sent.
    func journalAsSent(_ client: SocketClient) async throws -> [String] {
        client.sendLine(#"{"jsonrpc":"2.0","id":"list","method":"sandbox.calls.list","params":{"limit":1000}}"#)
        let line = try #require(await client.nextLine(timeout: 120))
        let tape = try JSONTape(string: line)
        return try tape.withRoot { root in
            let entries = try #require(root.member("result")?.member("entries"))
            return entries.arrayElements.map(\.rawText)
        }
    }

    @Test func readableAndJSONLinesAfterCallsAnErrorAndABatch() async throws {
        let (server, address) = try await gateway()
        let client = try SocketClient(tcp: address)
        _ = try await call(client, #"{"jsonrpc":"2.0","id":1,"method":"rpc.hello","params":{"client":"shop"}}"#)
        _ = try await call(
            client,
            #"{"jsonrpc":"2.0","id":2,"method":"tatra.executePayment","params":{"amount":"12.50","contact":{"fullName":"Jana Nováková","phones":["+421900123456"]}}}"#
        )
        let wrongPin = try await call(
            client, #"{"jsonrpc":"2.0","id":3,"method":"tatra.authorizePayment","params":{"pincode":"0000"}}"#)
        #expect(wrongPin["error"]?["code"] == -33007)
        let batch = try await call(
            client,
            #"[{"jsonrpc":"2.0","id":4,"method":"rpc.health"},{"jsonrpc":"2.0","method":"rpc.health"},{"jsonrpc":"2.0","id":5,"method":"no.such.method"}]"#
        )
        guard case .array(let answers) = batch else { throw SocketClientError("not a batch answer: \(batch)") }
        #expect(answers.count == 2)
        #expect(try await call(client, #"{"jsonrpc":"2.0","id":6,"method":"tatra.onFlowStart"}"#)["result"] == .null)

        let readable = try await calls(["--tcp", address])
        #expect(readable.status == 0, "\(readable.errors)")
        #expect(readable.errors.isEmpty)
        let lines = steady(readable.output)
        try #require(lines.count == 7, "\(readable.output)")
        #expect(lines[0].hasPrefix(#"T  1.1  call  rpc.hello  {"client":"shop"}  -> ok {"server":"payrpc","#), "\(lines[0])")
        #expect(lines[0].hasSuffix("  D ms  tcp#1 shop"), "\(lines[0])")
        #expect(
            Array(lines.dropFirst()) == [
                #"T  1.2  call  tatra.executePayment  {"amount":"12.50","contact":{"fullName":"Jana Nová...",...}}  -> ok "Pay 12.50 EUR to Jana Nováková (+421900123456)?"  D ms  tcp#1 shop"#,
                #"T  1.3  call  tatra.authorizePayment  {"pincode":"***"}  -> error -33007 Wrong PIN {"type":"wrongPin","status":"UNAUTHENTICATED","fatal":...}  D ms  tcp#1 shop"#,
                #"T  1.4  call  rpc.health  -> ok {"status":"SERVING"}  D ms  tcp#1 shop"#,
                #"T  1.5  call  rpc.health  -> no answer (a notification)  D ms  tcp#1 shop"#,
                #"T  1.6  call  no.such.method  -> error -32601 Method not found {"method":"no.such.method"}  D ms  tcp#1 shop"#,
                #"T  1.7  call  tatra.onFlowStart  -> ok null  D ms  tcp#1 shop"#,
            ], "\(readable.output)")
        // The frozen clock's time, UTC (give or take the real time the journal adds to it).
        #expect(
            readable.output.split(separator: "\n").allSatisfy { $0.contains(#/^10:(39:5\d|40:0\d)\.\d\d\d  /#) },
            "\(readable.output)")

        // --json: each entry exactly as the gateway's own answer holds it.
        let json = try await calls(["--tcp", address, "--json"])
        #expect(json.status == 0, "\(json.errors)")
        let sent = try await journalAsSent(client)
        #expect(sent.count == 7)
        #expect(json.output == sent.map { $0 + "\n" }.joined())
        #expect(json.output.contains(#""params":{"amount":"12.50","contact":{"fullName":"Jana Nováková""#))
        client.close()
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func pushesAndHTTPExchangesHaveLinesOfTheirOwn() async throws {
        // A cash payment whose POST the built-in sandbox Web API answers 503: one exchange, and
        // the journal.syncFailed pop-up pushed to the connection, both caused by the payment.
        let (server, address) = try await gateway(["--seed", "7"])
        let client = try SocketClient(tcp: address)
        _ = try await call(
            client,
            #"{"jsonrpc":"2.0","id":1,"method":"sandbox.journal.setNextAnswers","params":{"answers":[{"outcome":"serverError","httpStatus":503,"message":"maintenance"}]}}"#
        )
        client.sendLine(#"{"jsonrpc":"2.0","id":2,"method":"journal.pay","params":{"type":"cash","amount":"500"}}"#)
        while let message = await client.nextMessage(timeout: 120), message["id"] != 2 {}

        let http = try await calls(["--tcp", address, "--kind", "http", "--method", "POST"])
        #expect(
            steady(http.output) == [
                "T  h.1  http  POST sandbox://journal-web-api/payments/ 503 try 1  D ms  (caused by 1.2, delivery)"
            ],
            "\(http.output)\(http.errors)")
        let push = steady(try await calls(["--tcp", address, "--kind", "push"]).output)
        try #require(push.count == 1)
        #expect(push[0].hasPrefix(#"T  p.2  push  journal.syncFailed  {"entryId":"je_"#), "\(push[0])")
        #expect(push[0].hasSuffix(#""endpoint":"/payme...",...}  to tcp#1  (caused by 1.2, delivery)"#), "\(push[0])")
        client.close()
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func everyPageIsPrintedAndLimitStopsEarly() async throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent(
            "payrpc-calls-\(UUID().uuidString.prefix(8)).sock"
        ).path
        let (server, _) = try await gateway(listen: ["--unix", socket])
        let client = try SocketClient(unix: socket)
        let count = 250
        client.write(Array((1...count).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"rpc.health"}"# + "\n" }.joined().utf8))
        for _ in 1...count { _ = try #require(await client.nextMessage(timeout: 120)) }

        let all = try await calls(["--unix", socket])
        #expect(all.status == 0, "\(all.errors)")
        let ids = steady(all.output).map { $0.split(separator: " ", omittingEmptySubsequences: true)[1] }
        #expect(ids == (1...count).map { "1.\($0)" }, "three pages of 100, all printed in order")

        let json = try await calls(["--unix", socket, "--json"])
        #expect(json.output == (try await journalAsSent(client)).map { $0 + "\n" }.joined())

        let first = try await calls(["--unix", socket, "--limit", "120"])
        #expect(first.status == 0, "\(first.errors)")
        #expect(steady(first.output).map { $0.split(separator: " ")[1] } == (1...120).map { "1.\($0)" })
        client.close()
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func followPrintsWhatAnotherConnectionDoesUntilSIGINT() async throws {
        let (server, address) = try await gateway()
        let before = try SocketClient(tcp: address)
        _ = try await call(before, #"{"jsonrpc":"2.0","id":1,"method":"tatra.getIban"}"#)
        before.close()

        let follower = try await SpawnedServer(
            ["calls", "--tcp", address, "--follow", "--kind", "call", "--method", "tatra.getIban", "--timeout", "600"])
        let first = try #require(await follower.nextLine(timeout: 120))
        #expect(first.contains("  1.1  call  tatra.getIban  -> error -33001 Authorization required"), "\(first)")

        let other = try SocketClient(tcp: address)
        _ = try await call(other, #"{"jsonrpc":"2.0","id":1,"method":"rpc.health"}"#)
        _ = try await call(other, #"{"jsonrpc":"2.0","id":2,"method":"tatra.getIban"}"#)
        let next = try #require(await follower.nextLine(timeout: 120), "the follower printed the new entry")
        // Connection 2 is the follower's own; rpc.health (3.1) is not of its filter.
        #expect(next.contains("  3.2  call  tatra.getIban  -> error -33001"), "\(next)")

        follower.signal(SIGINT)
        #expect(await follower.waitForExit() == 0)
        #expect(follower.logText.isEmpty)
        #expect(await follower.nextLine(timeout: 5) == nil, "nothing more was printed")
        other.close()
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
        #expect(!server.logText.contains("drain timeout"), "the follower cancelled its wait: no call kept its connection")
    }

    @Test func followEndsWithAnErrorWhenTheGatewayGoes() async throws {
        let (server, address) = try await gateway()
        let follower = try await SpawnedServer(["calls", "--tcp", address, "--follow", "--json", "--timeout", "600"])
        let client = try SocketClient(tcp: address)
        _ = try await call(client, #"{"jsonrpc":"2.0","id":1,"method":"rpc.health"}"#)
        let line = try #require(await follower.nextLine(timeout: 120))
        #expect(JSONValue(parsingIfValid: line)?["method"] == "rpc.health", "\(line)")
        client.close()

        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
        #expect(await follower.waitForExit() == 1)
        #expect(follower.logText == "payrpc calls: the gateway closed the connection\n")
    }

    @Test func followEndsOnSIGTERMToo() async throws {
        let (server, address) = try await gateway()
        let follower = try await SpawnedServer(["calls", "--tcp", address, "--follow", "--timeout", "600"])
        let client = try SocketClient(tcp: address)
        _ = try await call(client, #"{"jsonrpc":"2.0","id":1,"method":"rpc.health"}"#)
        #expect(try #require(await follower.nextLine(timeout: 120)).contains("  call  rpc.health  -> ok"))
        follower.signal(SIGTERM)
        #expect(await follower.waitForExit() == 0)
        client.close()
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func profileShowsOnlyThatProfilesJournalWithTheToken() async throws {
        let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-token-\(UUID().uuidString)")
        try "calls-token\n".write(to: tokenFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: tokenFile) }
        let (server, address) = try await gateway(["--auth-token-file", tokenFile.path])
        let alice = try SocketClient(tcp: address)
        _ = try await call(
            alice, #"{"jsonrpc":"2.0","id":1,"method":"rpc.hello","params":{"token":"calls-token","profile":"alice"}}"#)
        _ = try await call(alice, #"{"jsonrpc":"2.0","id":2,"method":"tatra.getIban"}"#)
        let other = try SocketClient(tcp: address)
        _ = try await call(other, #"{"jsonrpc":"2.0","id":1,"method":"rpc.hello","params":{"token":"calls-token"}}"#)
        _ = try await call(other, #"{"jsonrpc":"2.0","id":2,"method":"rpc.health"}"#)

        let aliceLines = try await calls(["--tcp", address, "--token-file", tokenFile.path, "--profile", "alice"])
        #expect(aliceLines.status == 0, "\(aliceLines.errors)")
        let lines = steady(aliceLines.output)
        try #require(lines.count == 3, "\(aliceLines.output)")
        #expect(lines[0].hasPrefix(#"T  1.1  call  rpc.hello  {"token":"***","profile":"alice"}  -> ok"#), "\(lines[0])")
        #expect(lines[1].hasPrefix("T  1.2  call  tatra.getIban  -> error -33001"), "\(lines[1])")
        // Its own hello (connection 3) is a call of the profile's too.
        #expect(lines[2].hasPrefix(#"T  3.1  call  rpc.hello  {"token":"***","profile":"alice"}  -> ok"#), "\(lines[2])")
        #expect(!aliceLines.output.contains("calls-token"))

        let defaultLines = try await calls(["--tcp", address, "--token-file", tokenFile.path, "--method", "rpc.health"])
        #expect(steady(defaultLines.output) == [#"T  2.2  call  rpc.health  -> ok {"status":"SERVING"}  D ms  tcp#2"#])

        let refused = try await calls(["--tcp", address])
        #expect(refused.status == 1)
        #expect(refused.output.isEmpty)
        #expect(refused.errors.hasPrefix("payrpc calls: sandbox.calls.list: error -32001 "), "\(refused.errors)")
        alice.close()
        other.close()
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func badOptionsAreUsageErrors() async throws {
        let none = try await calls([])
        #expect(none.status == 64)
        #expect(none.errors.contains("choose exactly one of --tcp or --unix"), "\(none.errors)")
        let both = try await calls(["--tcp", "127.0.0.1:1", "--unix", "/tmp/x.sock"])
        #expect(both.status == 64)
        let kind = try await calls(["--tcp", "127.0.0.1:1", "--kind", "bogus"])
        #expect(kind.status == 64)
        #expect(kind.errors.contains("The value 'bogus' is invalid for '--kind <kind>'"), "\(kind.errors)")
        #expect(kind.errors.contains("'call', 'push' or 'http'"), "\(kind.errors)")
        let limit = try await calls(["--tcp", "127.0.0.1:1", "--limit", "0"])
        #expect(limit.status == 64)
        let address = try await calls(["--tcp", "nohost"])
        #expect(address.status == 64)
        #expect(address.errors.contains("--tcp takes HOST:PORT"), "\(address.errors)")
        #expect(address.errors.contains("payrpc calls --help"), "\(address.errors)")
    }

    @Test func nobodyListeningIsAClearError() async throws {
        // Port 1 on loopback: nothing listens there, and nobody may start a server there.
        let refused = try await calls(["--tcp", "127.0.0.1:1"])
        #expect(refused.status == 1)
        #expect(refused.output.isEmpty)
        #expect(refused.errors == "payrpc calls: cannot connect to 127.0.0.1:1: Connection refused\n")
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-none-\(UUID().uuidString)").path
        let missing = try await calls(["--unix", socket, "--follow"])
        #expect(missing.status == 1)
        #expect(missing.errors == "payrpc calls: cannot connect to \(socket): No such file or directory\n")
    }

    @Test(arguments: [["--no-call-journal"], ["--no-sandbox"]])
    func aGatewayWithoutTheJournalAnswersAnErrorThatIsPrinted(options: [String]) async throws {
        let (server, address) = try await gateway(options)
        for extra in [[], ["--follow"]] {
            let run = try await calls(["--tcp", address] + extra)
            #expect(run.status == 1)
            #expect(run.output.isEmpty)
            #expect(run.errors.hasPrefix("payrpc calls: sandbox.calls.list: error -32006 "), "\(run.errors)")
            if options == ["--no-call-journal"] {
                #expect(
                    run.errors
                        == "payrpc calls: sandbox.calls.list: error -32006 Call journal off (this gateway runs with --no-call-journal: it records no calls)\n"
                )
            }
        }
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }
}
