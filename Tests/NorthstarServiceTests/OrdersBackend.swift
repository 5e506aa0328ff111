import Foundation
import PayRPCTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The test Orders v2 server (`Support/orders_backend.py`) as a real process on a random port.
final class OrdersBackend: @unchecked Sendable {
    let process = Process()
    let port: Int
    var baseURL: String { "http://127.0.0.1:\(port)" }

    init() throws {
        let script = try #require(Bundle.module.url(forResource: "orders_backend", withExtension: "py"))
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Killed with SIGKILL: the test process's children inherit its blocked SIGTERM.
    deinit {
        ChildProcess.end(process)
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

    private func load(_ request: URLRequest) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data ?? Data()) }
            }.resume()
        }
    }
}
