import Foundation
import PayRPCTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The test Orders v2 server (`Support/orders_backend.py`) as a real process on a random port: it
/// checks every request against PayPal's published OpenAPI documents (`Support/paypal/`).
final class OrdersBackend: Sendable {
    let backend: PythonBackend
    var port: Int { backend.port }
    var baseURL: String { "http://127.0.0.1:\(port)" }

    init() async throws {
        let script = try #require(Bundle.module.url(forResource: "orders_backend", withExtension: "py"))
        backend = try await PythonBackend(script: script.path)
    }

    func control(_ command: [String: Any]) async throws {
        var request = URLRequest(url: URL(string: baseURL + "/_control")!)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: command)
        _ = try await load(request)
    }

    func requests() async throws -> [[String: Any]] {
        let data = try await load(URLRequest(url: URL(string: baseURL + "/_requests")!))
        return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }

    /// The requests that broke PayPal's published OpenAPI documents (each with its problems).
    func violations() async throws -> [[String: Any]] {
        let data = try await load(URLRequest(url: URL(string: baseURL + "/_violations")!))
        return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }

    /// How many requests the token endpoint received.
    func tokenRequests() async throws -> Int {
        let data = try await load(URLRequest(url: URL(string: baseURL + "/_tokens")!))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["count"] as? Int ?? -1
    }

    private func load(_ request: URLRequest) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data ?? Data()) }
            }.resume()
        }
    }
}
