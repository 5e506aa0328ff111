import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PayRPCProcess
#if canImport(Glibc)
import Glibc
#endif

/// A test's HTTP backend written in Python (`journal_backend.py`, `orders_backend.py`) as a real
/// process on 127.0.0.1, on the port it prints on its first line.
///
/// The interpreter is `PAYRPC_TEST_PYTHON` (scripts/test sets it to a virtual environment under
/// `.build/` that has the backends' PyPI packages, `Python/requirements.txt`), else `python3`. The
/// backends import what they share (`Python/http_test_server.py`, next to this file in the source
/// tree) from the `PYTHONPATH` this sets.
///
/// It dies with this process however this one ends: its stdin is a pipe whose other end only this
/// process holds, and the scripts exit when their stdin reaches EOF, which the kernel delivers
/// when a crashed test process's descriptors close. Otherwise it is killed (SIGKILL: the test
/// process's children inherit its blocked SIGTERM) when this object goes.
public final class PythonBackend: Sendable {
    /// The python process.
    public let process: SpawnedProcess
    /// The port it listens on.
    public let port: Int

    /// Starts the interpreter on `script` and reads its port.
    ///
    /// Asynchronous, and the port is read on a thread of its own: a script takes seconds to start
    /// on a loaded machine (the Orders v2 server loads PayPal's OpenAPI documents), and a test
    /// that held one of the cooperative pool's two threads that long stalled every other test's
    /// tasks.
    /// - Parameters:
    ///   - arguments: what the script is given after its path.
    ///   - timeout: how long the script may take to print its port.
    public init(script: String, arguments: [String] = [], timeout: Double = 120) async throws {
        let environment = ProcessInfo.processInfo.environment
        let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Python").path
        let path = [shared, environment["PYTHONPATH"]].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ":")
        let process = try await SpawnedProcess.start(
            "/usr/bin/env", arguments: [environment["PAYRPC_TEST_PYTHON"] ?? "python3", script] + arguments,
            environment: ["PYTHONPATH": path]
        )
        let fd = process.standardOutput
        let line = await EventWait.blocking(timeout: timeout) { () -> [UInt8] in
            var line: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64)
            while !line.contains(UInt8(ascii: "\n")) {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                line += chunk[..<count]
            }
            return line
        }
        let printed = String(decoding: line ?? [], as: UTF8.self)
        guard let port = Int(printed.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.signal(SIGKILL)
            throw NoPort(script: script, printed: line == nil ? "nothing within \(Int(timeout)) s" : printed)
        }
        self.process = process
        self.port = port
    }

    deinit {
        process.signal(SIGKILL)
    }

    /// Sends a GET to the backend's `path`, or a POST of `body` as JSON, and answers the JSON it
    /// gets back (its test-control endpoints: `/_control`, `/_requests`, ...).
    public func exchange(_ path: String, posting body: [String: Any]? = nil, timeout: TimeInterval = 90) async throws -> Any {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, timeoutInterval: timeout)
        if let body {
            request.httpMethod = "POST"
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
        }
        let data: Data = try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data ?? Data()) }
            }.resume()
        }
        return try JSONSerialization.jsonObject(with: data)
    }
}

/// A backend script ended or printed something else before its port.
public struct NoPort: Error, CustomStringConvertible {
    /// The script.
    public let script: String
    /// What it printed instead.
    public let printed: String

    /// `the backend x.py printed no port (printed: "")`.
    public var description: String { "the backend \(script) printed no port (printed: \"\(printed)\")" }
}
