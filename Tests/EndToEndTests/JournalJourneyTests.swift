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

        init() throws {
            let script = SpawnedServer.repositoryRoot.appendingPathComponent("Tests/JournalServiceTests/Support/journal_backend.py")
            backend = try PythonBackend(script: script.path)
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
        let backend = try Backend()
        let server = try await SpawnedServer(["serve", "--stdio", "--journal-backend", backend.url])
        let opened = await server.request("journal.openURL", ["url": "opener://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10000&Startup_Mode=1"])
        let handoff = try #require(opened?["result"]?["url"])
        #expect(handoff == "linkPayment://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10000&Startup_Mode=1#opener://")
        let callback = try #require(await server.request("sandbox.journal.completePayment", ["url": handoff])?["result"]?["callbackURL"])
        let entry = try #require(await server.request("journal.handleCallback", ["url": callback])?["result"])
        _ = await server.request("journal.sync")
        let stored = await server.request("journal.get", ["entryId": entry["entryId"] ?? .null])?["result"]
        #expect(stored?["delivery"]?["status"] == "delivered")
        let requests = try await backend.get("/_requests") as? [[String: Any]] ?? []
        #expect(requests.map { $0["path"] as? String } == ["/payments/", "/journals/"])
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    @Test func sigkillDuringDeliveryLosesAndDoublesNothing() async throws {
        let backend = try Backend()
        try await backend.post("/_control", ["failEvery": 2, "mode": "drop"])
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-journal-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try await SpawnedServer(["serve", "--stdio", "--journal-backend", backend.url], dataDirectory: data)
        var saved = 0
        for index in 1...60 {
            if await first.request("journal.pay", ["type": "cash", "amount": .string(String(index))])?["result"]?["entry"] != nil { saved += 1 }
        }
        #expect(saved == 60)
        first.signal(SIGKILL)
        _ = await first.waitForExit()

        try await backend.post("/_control", ["failEvery": 0])
        let second = try await SpawnedServer(["serve", "--stdio", "--journal-backend", backend.url], dataDirectory: data)
        var waiting: JSONValue? = nil
        for _ in 0..<5 {
            waiting = await second.request("journal.sync")?["result"]?["waiting"]
            if waiting == 0 { break }
        }
        #expect(waiting == 0)
        let listed = await second.request("journal.list", ["status": "delivered", "limit": 100])?["result"]?["entries"]
        if case .array(let entries)? = listed { #expect(entries.count == 60) } else { Issue.record("no list") }
        let stored = try await backend.get("/_payments") as? [String: Any]
        let payments = stored?["payments"] as? [String: Any] ?? [:]
        #expect(payments.count == 60)
        let amounts = Set(payments.values.compactMap { (($0 as? [String: Any])?["body"] as? [String: Any])?["Amount"] as? String })
        #expect(amounts.count == 60)
        second.closeInput()
        _ = await second.waitForExit()
    }
}
