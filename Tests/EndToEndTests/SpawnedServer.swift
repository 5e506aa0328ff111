import Foundation
import PayRPCProcess
import PayRPCTestSupport
import PayRPCJSON
import PayRPCSync
#if canImport(Glibc)
import Glibc
#endif

/// The real `payrpc` binary, spawned by a test: its stdin/stdout as a line channel, its stderr
/// collected (and searched for the addresses it listens on), its exit status awaited.
final class SpawnedServer: @unchecked Sendable {
    let process: SpawnedProcess
    private let stdin: FileHandle
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

    /// The binary users run, for the tests of what only it can show (its memory bound, the peer
    /// harness's agreement): `PAYRPC_SHIPPED_BIN` (scripts/test sets it to the release build that
    /// scripts/install installed), else ``binary``. A sanitized build's allocator and frames are not
    /// what a user's server has.
    static var shippedBinary: URL {
        ProcessInfo.processInfo.environment["PAYRPC_SHIPPED_BIN"].map { URL(fileURLWithPath: $0) } ?? binary
    }

    /// The repository root (for `Schemas/` and `../shared/testdata`).
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Starts `payrpc <arguments>` with `environment` on top of this process's; for `serve`,
    /// `--validate-results` is added, and `--data` (a fresh temporary directory) unless the
    /// arguments say `--data` or `--ephemeral` or the environment sets `XDG_DATA_HOME`.
    init(
        _ arguments: [String], dataDirectory: URL? = nil, environment: [String: String?] = [:], binary: URL = SpawnedServer.binary
    ) async throws {
        let directory =
            dataDirectory
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("payrpc-e2e-\(UUID().uuidString)")
        self.dataDirectory = directory
        var arguments = arguments
        if arguments.first == "serve", !arguments.contains("--data"), !arguments.contains("--ephemeral"),
            (environment["XDG_DATA_HOME"] ?? nil) == nil
        {
            arguments += ["--data", directory.path]
        }
        // Every result and notification a test sees has been checked against its schema.
        if arguments.first == "serve" && !arguments.contains("--validate-results") { arguments.append("--validate-results") }
        process = try await SpawnedProcess.start(
            binary.path, arguments: arguments, environment: environment,
            standardError: .pipe)
        let pipes = process.detachStandardStreams()
        stdin = FileHandle(fileDescriptor: pipes.input, closeOnDealloc: true)
        Self.pump(pipes.output, into: lines)
        Self.pump(pipes.error, into: logs)
    }

    /// Reads `fd` on a thread of its own until EOF (the server exited; the process's deinit
    /// kills one still running), feeding `queue`; then closes it and finishes the queue.
    ///
    /// Not `FileHandle.readabilityHandler`: clearing a handler cancels its dispatch source
    /// asynchronously, the handle's close could come first, and libdispatch's event loop then
    /// crashed (SIGSEGV in `_dispatch_event_loop_drain`) at the end of one test process in about
    /// eight that ran `BalancedDeploymentTests` alone.
    private static func pump(_ fd: Int32, into queue: LineQueue) {
        Thread {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                queue.feed(Data(chunk[..<count]))
            }
            close(fd)
            queue.finish()
        }.start()
    }

    /// The process id.
    var pid: Int32 { process.processID }

    /// Writes raw bytes to the server's stdin.
    func write(_ bytes: [UInt8]) {
        stdin.write(Data(bytes))
    }

    /// Writes one line (a newline is added).
    func send(_ line: String) { write(Array((line + "\n").utf8)) }

    /// Closes the server's stdin (EOF).
    func closeInput() { try? stdin.close() }

    /// The next stdout line, or nil at EOF or after the timeout.
    func nextLine(timeout: Double = 60) async -> String? { await lines.next(timeout: timeout) }

    /// The next stdout line as JSON.
    func nextMessage(timeout: Double = 60) async -> JSONValue? {
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

    /// Waits for a log line containing `text` (lines before it are consumed); false at EOF or
    /// after `timeout` seconds.
    func waitForLog(containing text: String, timeout: Double = 60) async -> Bool {
        while let line = await logs.next(timeout: timeout) {
            if line.contains(text) { return true }
        }
        return false
    }

    /// Waits for the process to exit; its status, or nil on timeout. The deadlines here only end
    /// a hang: on a two-core machine running the whole suite (and under ThreadSanitizer) an exit
    /// or an answer has taken more than 20 s to be seen.
    /// Everything it wrote to stderr is in ``logText`` by then (the pipe's EOF is awaited too).
    func waitForExit(timeout: Double = 120) async -> Int32? {
        let status = await process.waitForExit(timeout: timeout)?.code
        if status != nil { await logs.waitUntilFinished(timeout: timeout) }
        return status
    }

    /// Sends a signal.
    func signal(_ number: Int32) { process.signal(number) }

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

/// Lines arriving from a pipe, awaited without blocking the cooperative pool: a waiter is
/// resumed by the line that arrives for it, by the end of the pipe, or by its deadline.
final class LineQueue: Sendable {
    private struct State {
        var buffer: [UInt8] = []
        var lines: [String] = []
        var finished = false
        var all = ""
        var waiters: [(id: UInt64, continuation: CheckedContinuation<String?, Never>)] = []
        var endWaiters: [ResumeOnce<Bool>] = []
        var lastWaiterID: UInt64 = 0

        /// Hands queued lines (or, once finished, nil) to waiters in order; what to resume.
        mutating func matched() -> [(CheckedContinuation<String?, Never>, String?)] {
            var resumed: [(CheckedContinuation<String?, Never>, String?)] = []
            while !waiters.isEmpty && (!lines.isEmpty || finished) {
                resumed.append((waiters.removeFirst().continuation, lines.isEmpty ? nil : lines.removeFirst()))
            }
            return resumed
        }
    }

    private let state = Lock(State())

    func feed(_ data: Data) {
        let resumed = state.withLock { state in
            state.buffer.append(contentsOf: data)
            state.all += String(decoding: data, as: UTF8.self)
            while let newline = state.buffer.firstIndex(of: 0x0A) {
                state.lines.append(String(decoding: state.buffer[..<newline], as: UTF8.self))
                state.buffer.removeSubrange(...newline)
            }
            return state.matched()
        }
        for (continuation, line) in resumed { continuation.resume(returning: line) }
    }

    func finish() {
        let resumed = state.withLock { state in
            if !state.buffer.isEmpty {
                state.lines.append(String(decoding: state.buffer, as: UTF8.self))
                state.buffer.removeAll()
            }
            state.finished = true
            return (state.matched(), state.endWaiters)
        }
        for (continuation, line) in resumed.0 { continuation.resume(returning: line) }
        for waiter in resumed.1 { waiter.resume(true) }
    }

    /// Returns once the pipe has ended (EOF), or after `timeout` seconds.
    func waitUntilFinished(timeout: Double) async {
        _ = await withCheckedContinuation { (continuation: CheckedContinuation<Bool?, Never>) in
            let once = ResumeOnce(continuation)
            let finished = state.withLock { state in
                if !state.finished { state.endWaiters.append(once) }
                return state.finished
            }
            if finished { once.resume(true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { once.resume(nil) }
        }
    }

    var everything: String { state.withLock { $0.all } }

    /// The next line; nil at EOF or after `timeout` seconds.
    func next(timeout: Double) async -> String? {
        let id = state.withLock { state in
            state.lastWaiterID += 1
            return state.lastWaiterID
        }
        return await withCheckedContinuation { continuation in
            let resumed = state.withLock { state in
                state.waiters.append((id, continuation))
                return state.matched()
            }
            for (continuation, line) in resumed { continuation.resume(returning: line) }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self] in self?.expire(id) }
        }
    }

    /// Resumes waiter `id` with nil if it is still waiting.
    private func expire(_ id: UInt64) {
        let expired = state.withLock { state -> CheckedContinuation<String?, Never>? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index).continuation
        }
        expired?.resume(returning: nil)
    }
}
