import Foundation
import PayRPCProcess
#if canImport(Glibc)
import Glibc
#endif

/// A child that a test runs to its end (`payrpc validate`, `payrpc data check`, `payrpc-bench
/// run`), spawned through PayRPCProcess like every child of payrpc's.
public enum ChildRun {
    /// How a child ended: its exit code (or signal), nil when it did not end in time (it is then
    /// killed); what it wrote to stdout and stderr (empty for a stream that was not a pipe).
    public struct Result: Sendable {
        /// The exit code or signal (as ``TerminationStatus/code``); nil when it was killed for time.
        public let status: Int32?
        /// Its stdout.
        public let output: String
        /// Its stderr.
        public let errors: String
    }

    /// Runs `executable` with `arguments` (and `environment` over this process's) until it exits. `input` is written to its stdin pipe,
    /// which is then closed; `standardInput`/`standardOutput` replace the pipes (a regular file's
    /// descriptor, say). stdout and stderr are read on threads of their own while it runs, so
    /// neither can fill and stall it.
    public static func run(
        _ executable: URL, _ arguments: [String], input: String? = nil, in directory: URL? = nil,
        environment: [String: String?] = [:],
        standardInput: SpawnedProcess.Stream = .pipe, standardOutput: SpawnedProcess.Stream = .pipe,
        timeout: Double = 120
    ) async throws -> Result {
        let child = try await SpawnedProcess.start(
            executable.path, arguments: arguments, environment: environment, workingDirectory: directory?.path,
            standardInput: standardInput, standardOutput: standardOutput, standardError: .pipe)
        let pipes = child.detachStandardStreams()
        async let output = readToEnd(pipes.output, timeout: timeout + 60)
        async let errors = readToEnd(pipes.error, timeout: timeout + 60)
        if pipes.input >= 0 {
            if let input { writeAll(Array(input.utf8), to: pipes.input) }
            close(pipes.input)
        }
        let status = await child.waitForExit(timeout: timeout)?.code
        if status == nil { child.signal(SIGKILL) }
        return Result(status: status, output: await output, errors: await errors)
    }

    /// Everything `fd` yields until EOF (then closes it), read on a thread of its own; "" for -1
    /// or when `timeout` seconds pass first (a grandchild holding the pipe).
    private static func readToEnd(_ fd: Int32, timeout: Double) async -> String {
        guard fd >= 0 else { return "" }
        return await EventWait.blocking(timeout: timeout) {
            defer { close(fd) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                bytes += chunk[..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        } ?? ""
    }

    /// Writes all of `bytes` to `fd`; stops early when the reader has gone.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
