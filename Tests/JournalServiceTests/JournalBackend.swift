import Foundation
import PayRPCTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The test backend (`Support/journal_backend.py`) as a real process on 127.0.0.1 and a random port.
final class JournalBackend: Sendable {
    let backend: PythonBackend
    var port: Int { backend.port }
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    init() async throws {
        let script = try #require(Bundle.module.url(forResource: "journal_backend", withExtension: "py"))
        backend = try await PythonBackend(script: script.path)
    }

    /// POSTs a control command.
    func control(_ command: [String: Any]) async throws {
        var request = URLRequest(url: baseURL.appendingPathComponent("_control"))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: command)
        _ = try await Self.load(request)
    }

    /// Every request the backend received (once `atLeast` have come, or 30 s have passed).
    func requests(atLeast count: Int = 0) async throws -> [[String: Any]] {
        let url = URL(string: baseURL.absoluteString + "/_requests?atLeast=\(count)")!
        let data = try await Self.load(URLRequest(url: url, timeoutInterval: 60))
        return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }

    /// The paths of the requests received, in order (`/payments/`, `/journals/`).
    func paths() async throws -> [String] {
        try await requests().compactMap { $0["path"] as? String }
    }

    /// The payments and journals stored, by idempotency key.
    func stored() async throws -> (payments: [String: Any], journals: [String: Any]) {
        let data = try await Self.load(URLRequest(url: baseURL.appendingPathComponent("_payments")))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return (object["payments"] as? [String: Any] ?? [:], object["journals"] as? [String: Any] ?? [:])
    }

    private static func load(_ request: URLRequest) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data ?? Data()) }
            }.resume()
        }
    }
}
