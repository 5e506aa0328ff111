import Foundation
import PayRPCTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The shop's backend (`Support/urlc_shop.py`) as a real HTTP server on 127.0.0.1: it checks each
/// URLC notification's signature with its own PIN and the documented order of the parameters.
final class UrlcShop: Sendable {
    let backend: PythonBackend
    /// Where notifications go (`PaymentInfo.urlc`).
    var urlc: String { "http://127.0.0.1:\(backend.port)/dotpay/urlc" }

    init() throws {
        let script = try #require(Bundle.module.url(forResource: "urlc_shop", withExtension: "py"))
        backend = try PythonBackend(script: script.path)
    }

    /// POSTs a control command (`{"pin": ...}`, `{"fail": N, "mode": ...}`).
    func control(_ command: [String: Any]) async throws {
        var request = URLRequest(url: url("/_control"))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: command)
        _ = try await Self.load(request)
    }

    /// Every notification the shop received, in order.
    func requests() async throws -> [[String: Any]] {
        let data = try await Self.load(URLRequest(url: url("/_requests")))
        return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }

    /// Waits until the shop has accepted `count` notifications (a delivery made in the background),
    /// and answers how many it has.
    func waitForAccepted(_ count: Int) async throws -> Int {
        let data = try await Self.load(URLRequest(url: url("/_wait?accepted=\(count)"), timeoutInterval: 90))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["accepted"] as? Int ?? 0
    }

    private func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(backend.port)\(path)")! }

    private static func load(_ request: URLRequest) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data ?? Data()) }
            }.resume()
        }
    }
}
