import Foundation
import PayRPCTestSupport
import PayRPCJSON
#if canImport(Glibc)
import Glibc
#endif

/// The real `payrpc` binary, spawned by a test: its stdin/stdout as a line channel, its stderr
/// collected (and searched for the addresses it listens on), its exit status awaited.
final class SpawnedServer: @unchecked Sendable {
    let process = Process()
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    let lines = LineQueue()
    let logs = LineQueue()
    let dataDirectory: URL

    /// The binary under test: `PAYRPC_BIN`, else `payrpc` next to the test bundle.
    static var binary: URL {
        if let explicit = ProcessInfo.processInfo.environment["PAYRPC_BIN"] { return URL(fileURLWithPath: explicit) }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = exe.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("payrpc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return exe.deletingLastPathComponent().appendingPathComponent("payrpc")
    }

    /// The repository root (for `Schemas/` and `../shared/testdata`).
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Starts `payrpc <arguments>`; for `serve`, `--validate-results` is added, and `--data` (a
    /// fresh temporary directory) unless given.
    init(_ arguments: [String], dataDirectory: URL? = nil) throws {
        let directory = dataDirectory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("payrpc-e2e-\(UUID().uuidString)")
        self.dataDirectory = directory
        process.executableURL = Self.binary
        var arguments = arguments
        if arguments.first == "serve" && !arguments.contains("--data") { arguments += ["--data", directory.path] }
        // Every result and notification a test sees has been checked against its schema.
        if arguments.first == "serve" && !arguments.contains("--validate-results") { arguments.append("--validate-results") }
        process.arguments = arguments
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let lines = self.lines, logs = self.logs
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { lines.finish(); handle.readabilityHandler = nil } else { lines.feed(data) }
        }
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { logs.finish(); handle.readabilityHandler = nil } else { logs.feed(data) }
        }
        try process.run()
    }

    deinit {
        ChildProcess.end(process)
    }

    /// The process id.
    var pid: Int32 { process.processIdentifier }

    /// Writes raw bytes to the server's stdin.
    func write(_ bytes: [UInt8]) {
        stdin.fileHandleForWriting.write(Data(bytes))
    }

    /// Writes one line (a newline is added).
    func send(_ line: String) { write(Array((line + "\n").utf8)) }

    /// Closes the server's stdin (EOF).
    func closeInput() { try? stdin.fileHandleForWriting.close() }

    /// The next stdout line, or nil at EOF or after the timeout.
    func nextLine(timeout: Double = 15) async -> String? { await lines.next(timeout: timeout) }

    /// The next stdout line as JSON.
    func nextMessage(timeout: Double = 15) async -> JSONValue? {
        await nextLine(timeout: timeout).flatMap { try? JSONValue(parsing: $0) }
    }

    /// Calls a method over stdio and returns the whole response.
    func request(_ method: String, _ params: JSONValue? = nil, id: JSONValue = "1") async -> JSONValue? {
        var members: [JSONValue.Member] = [.init("jsonrpc", "2.0"), .init("id", id), .init("method", .string(method))]
        if let params { members.append(.init("params", params)) }
        send(JSONValue.object(members).jsonText)
        while let message = await nextMessage() {
            if message["id"] == id { return message }
        }
        return nil
    }

    /// The first address the server logs that it listens on (`host:port` or a socket path).
    func listeningAddress(timeout: Double = 20) async -> String? {
        while let line = await logs.next(timeout: timeout) {
            if let range = line.range(of: "listening on ") {
                return String(line[range.upperBound...].split(separator: " ").first ?? "")
            }
        }
        return nil
    }

    /// Waits for the process to exit; its status, or nil on timeout.
    func waitForExit(timeout: Double = 20) async -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }

    /// Sends a signal.
    func signal(_ number: Int32) { kill(pid, number) }

    /// The server's resident memory in KiB (VmRSS), or nil.
    var residentKiB: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        }
        return nil
    }

    /// Everything the server logged so far.
    var logText: String { logs.everything }
}

/// Lines arriving from a pipe, awaited without blocking the cooperative pool.
final class LineQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private var lines: [String] = []
    private var finished = false
    private var all = ""

    func feed(_ data: Data) {
        lock.lock()
        buffer.append(contentsOf: data)
        all += String(decoding: data, as: UTF8.self)
        while let newline = buffer.firstIndex(of: 0x0A) {
            lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
            buffer.removeSubrange(...newline)
        }
        lock.unlock()
    }

    func finish() {
        lock.lock()
        if !buffer.isEmpty { lines.append(String(decoding: buffer, as: UTF8.self)); buffer.removeAll() }
        finished = true
        lock.unlock()
    }

    private func take() -> (String?, Bool) {
        lock.lock()
        defer { lock.unlock() }
        if !lines.isEmpty { return (lines.removeFirst(), false) }
        return (nil, finished)
    }

    var everything: String {
        lock.lock()
        defer { lock.unlock() }
        return all
    }

    /// The next line; nil at EOF or after `timeout` seconds. Polls every few milliseconds: the
    /// pipe is read by Foundation's handler thread, so no thread of the pool is held.
    func next(timeout: Double) async -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let (line, done) = take()
            if let line { return line }
            if done || Date() > deadline { return nil }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
}
