import Foundation
import PayRPCTestSupport
import Testing

/// The shop's backend (`Support/urlc_shop.py`) as a real HTTP server on 127.0.0.1: it checks each
/// URLC notification's signature with its own PIN and the documented order of the parameters.
final class UrlcShop: Sendable {
    let backend: PythonBackend
    /// Where notifications go (`PaymentInfo.urlc`).
    var urlc: String { "http://127.0.0.1:\(backend.port)/dotpay/urlc" }

    init() async throws {
        let script = try #require(Bundle.module.url(forResource: "urlc_shop", withExtension: "py"))
        backend = try await PythonBackend(script: script.path)
    }

    /// POSTs a control command (`{"pin": ...}`, `{"fail": N, "mode": ...}`).
    func control(_ command: [String: Any]) async throws {
        _ = try await backend.exchange("/_control", posting: command)
    }

    /// Every notification the shop received, in order.
    func requests() async throws -> [[String: Any]] {
        try await backend.exchange("/_requests") as? [[String: Any]] ?? []
    }

    /// Waits until the shop has accepted `count` notifications (a delivery made in the background),
    /// and answers how many it has.
    func waitForAccepted(_ count: Int) async throws -> Int {
        (try await backend.exchange("/_wait?accepted=\(count)") as? [String: Any])?["accepted"] as? Int ?? 0
    }
}
