import Foundation
import PayRPCTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PayRPCJSON
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The journal against the spawned binary and the test backend (a real HTTP server): a card
/// payment from `opener://` to the `/journals/` post, and SIGKILL during delivery with every
/// payment at the backend exactly once after the restart.
@Suite struct JournalJourneyTests {
    /// The test backend as a process.
    final class Backend: Sendable {
        let backend: PythonBackend

        init() async throws {
            let script = SpawnedServer.repositoryRoot.appendingPathComponent(
                "Tests/JournalServiceTests/Support/journal_backend.py")
            backend = try await PythonBackend(script: script.path)
        }

        var url: String { "http://127.0.0.1:\(backend.port)" }

        func get(_ path: String) async throws -> Any {
            let data: Data = try await withCheckedThrowingContinuation { continuation in
                URLSession.shared.dataTask(with: URL(string: url + path)!) { data, _, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data ?? Data()) }
                }.resume()
            }
            return try JSONSerialization.jsonObject(with: data)
        }

        func post(_ path: String, _ body: [String: Any]) async throws {
            var request = URLRequest(url: URL(string: url + path)!)
            request.httpMethod = "POST"
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            let _: Data = try await withCheckedThrowingContinuation { continuation in
                URLSession.shared.dataTask(with: request) { data, _, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data ?? Data()) }
                }.resume()
            }
        }
    }

    @Test func cardPaymentFromOpenerToTheJournalsPost() async throws {
        let backend = try await Backend()
        let server = try await SpawnedServer(["serve", "--stdio", "--journal-backend", backend.url])
        let opened = await server.request(
            "journal.openURL",
            ["url": "opener://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10000&Startup_Mode=1"])
        let handoff = try #require(opened?["result"]?["url"])
        #expect(
            handoff
                == "linkPayment://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10000&Startup_Mode=1#opener://"
        )
        let callback = try #require(
            await server.request("sandbox.journal.completePayment", ["url": handoff])?["result"]?["callbackURL"])
        let entry = try #require(await server.request("journal.handleCallback", ["url": callback])?["result"])
        _ = await server.request("journal.sync")
        let stored = await server.request("journal.get", ["entryId": entry["entryId"] ?? .null])?["result"]
        #expect(stored?["delivery"]?["status"] == "delivered")
        let requests = try await backend.get("/_requests") as? [[String: Any]] ?? []
        #expect(requests.map { $0["path"] as? String } == ["/payments/", "/journals/"])
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    /// libcurl is loaded on the first outgoing request; when it cannot be (`PAYRPC_LIBCURL` names a
    /// file that does not exist, as a machine without libcurl4 would), the delivery is a network
    /// failure that says why, the gateway lives on and answers, and the entry waits to be sent.
    @Test func aLibcurlThatCannotBeLoadedIsANetworkFailureThatSaysWhy() async throws {
        let backend = try await Backend()
        let server = try await SpawnedServer(
            ["serve", "--stdio", "--journal-backend", backend.url],
            environment: ["PAYRPC_LIBCURL": "/nonexistent/libcurl.so.4"])
        let entry = try #require(await server.request("journal.pay", ["type": "cash", "amount": "100"])?["result"]?["entry"])
        #expect(entry["delivery"]?["status"] != "delivered")
        let stored = await server.request("journal.get", ["entryId": entry["entryId"] ?? .null])?["result"]
        let reason = stored?["delivery"]?["lastError"]?.stringValue ?? ""
        #expect(reason.contains("libcurl could not be loaded (PAYRPC_LIBCURL=/nonexistent/libcurl.so.4"), "\(reason)")
        #expect(await server.request("rpc.health")?["result"]?["status"] == "SERVING")
        let requests = try await backend.get("/_requests") as? [[String: Any]] ?? []
        #expect(requests.isEmpty)
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    /// Item 28.3 through the binary: the resend at start-up meets a server error of the sandbox
    /// Web API (answers set before the restart, kept in the store) and `journal.syncFailed` reaches
    /// the stdio client (profile `default`) and a TCP client that says `rpc.hello {profile: shop}`
    /// later, each once; neither hears the other profile's.
    @Test func syncFailedAtStartUpReachesEachProfilesFirstConnection() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-journal-startup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let failing: JSONValue = [
            "answers": [
                ["outcome": "serverError", "httpStatus": 503, "message": "maintenance"],
                ["outcome": "serverError", "httpStatus": 503, "message": "still down"],
            ]
        ]
        let first = try await SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        var entries: [String: JSONValue] = [:]
        for profile in ["default", "shop"] {
            _ = await first.request("rpc.hello", ["profile": .string(profile)])
            _ = await first.request("sandbox.journal.setNextAnswers", failing)
            let entry = await first.request("journal.pay", ["type": "cash", "amount": "100"])?["result"]?["entry"]
            #expect(entry?["delivery"]?["status"] == "serverError")
            entries[profile] = entry?["entryId"]
        }
        first.closeInput()
        #expect(await first.waitForExit() == 0)

        let second = try await SpawnedServer(["serve", "--stdio", "--tcp", "127.0.0.1:0"], dataDirectory: data)
        let address = try #require(await second.listeningAddress())
        let pushed = await second.nextMessage()
        #expect(pushed?["method"] == "journal.syncFailed")
        #expect(
            pushed?["params"] == [
                "entryId": entries["default"] ?? .null, "endpoint": "/payments/", "httpStatus": 503,
                "message": "still down",
            ])
        let tcp = try SocketClient(tcp: address)
        tcp.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"rpc.hello","params":{"profile":"shop"}}"#)
        var lines: [JSONValue] = []
        for _ in 0..<2 { lines.append(try JSONValue(parsing: await tcp.nextLine(timeout: 60) ?? "")) }
        let notification = try #require(lines.first { $0["method"] == "journal.syncFailed" })
        #expect(notification["params"]?["entryId"] == entries["shop"] && notification["params"]?["message"] == "still down")
        #expect(lines.contains { $0["id"] == 1 && $0["result"]?["profile"] == "shop" })
        // Delivered once: a second connection of the profile, and the stdio client, hear nothing more.
        let late = try SocketClient(tcp: address)
        late.sendLine(#"{"jsonrpc":"2.0","id":2,"method":"rpc.hello","params":{"profile":"shop"}}"#)
        #expect(try JSONValue(parsing: await late.nextLine(timeout: 60) ?? "")["id"] == 2)
        second.send(#"{"jsonrpc":"2.0","id":"h","method":"rpc.health"}"#)
        #expect(await second.nextMessage()?["id"] == "h")
        let stored = await second.request("journal.get", ["entryId": entries["default"] ?? .null])?["result"]
        #expect(stored?["delivery"]?["status"] == "serverError" && stored?["delivery"]?["attempts"] == 2)
        second.closeInput()
        #expect(await second.waitForExit() == 0)
    }

    @Test func sigkillDuringDeliveryLosesAndDoublesNothing() async throws {
        let backend = try await Backend()
        try await backend.post("/_control", ["failEvery": 2, "mode": "drop"])
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-journal-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try await SpawnedServer(["serve", "--stdio", "--journal-backend", backend.url], dataDirectory: data)
        // Sixty payments at once; each answers once its delivery was tried, so deliveries are
        // under way when the backend has seen thirty POSTs, and the kill lands among them.
        for index in 1...60 {
            first.send(#"{"jsonrpc":"2.0","id":\#(index),"method":"journal.pay","params":{"type":"cash","amount":"\#(index)"}}"#)
        }
        let seen = try await backend.get("/_requests?atLeast=30") as? [[String: Any]] ?? []
        #expect(seen.count >= 30)
        first.signal(SIGKILL)
        _ = await first.waitForExit()
        let keysSeen = Set((try await backend.get("/_requests") as? [[String: Any]] ?? []).compactMap { $0["key"] as? String })

        try await backend.post("/_control", ["failEvery": 0])
        let second = try await SpawnedServer(["serve", "--stdio", "--journal-backend", backend.url], dataDirectory: data)
        let entries = try #require(await second.syncedJournalEntries())
        // Every payment the backend saw belongs to a saved entry; every saved entry is delivered, once.
        #expect(entries.count >= keysSeen.count && !keysSeen.isEmpty)
        #expect(entries.allSatisfy { $0["delivery"]?["status"] == "delivered" })
        let stored = try await backend.get("/_payments") as? [String: Any]
        let payments = stored?["payments"] as? [String: Any] ?? [:]
        #expect(payments.count == entries.count)
        let amounts = Set(
            payments.values.compactMap { (($0 as? [String: Any])?["body"] as? [String: Any])?["Amount"] as? String })
        #expect(amounts == Set(entries.compactMap { $0["amount"]?.stringValue }))
        second.closeInput()
        _ = await second.waitForExit()
    }
}

extension SpawnedServer {
    /// `journal.sync` until nothing waits (up to five rounds), then every entry (`journal.list`);
    /// nil, with the issue recorded, when entries still wait or there is no list.
    func syncedJournalEntries() async -> [JSONValue]? {
        var waiting: JSONValue? = nil
        for _ in 0..<5 {
            waiting = await request("journal.sync")?["result"]?["waiting"]
            if waiting == 0 { break }
        }
        #expect(waiting == 0)
        guard case .array(let entries)? = await request("journal.list", ["limit": 100])?["result"]?["entries"] else {
            Issue.record("no list")
            return nil
        }
        return entries
    }
}
