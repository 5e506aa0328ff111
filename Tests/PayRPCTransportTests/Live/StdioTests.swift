import PayRPCTestSupport
import Foundation
import Testing
@testable import PayRPCTransport
import CLibUV
// The tests' pipes and socketpairs are close-on-exec from the start: other tests spawn children
// meanwhile, and a child that inherits an end holds it open (a write that should fail with EPIPE
// succeeds; an end of file never comes), as the CI run of 2026-12-06 saw.
import CPipe

#if canImport(Glibc)
import Glibc
#endif
import Logging

/// This process's open descriptors on the pipe `fd` is an end of (both ends share its inode).
func descriptorsOpen(onTheSamePipeAs fd: Int32) -> [Int32] {
    func target(_ path: String) -> String? { try? FileManager.default.destinationOfSymbolicLink(atPath: path) }
    guard let pipe = target("/proc/self/fd/\(fd)"), pipe.hasPrefix("pipe:") else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return names.compactMap(Int32.init).filter { target("/proc/self/fd/\($0)") == pipe }.sorted()
}

/// Reads everything from `fd` until EOF (bounded by a poll timeout per read).
func readAll(_ fd: Int32, timeoutMilliseconds: Int32 = 10_000) -> String? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeoutMilliseconds) == 1 else { return nil }
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if count <= 0 { break }
        bytes.append(contentsOf: chunk[..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Writes all of `text` to `fd`.
func writeAll(_ fd: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if written <= 0 { return }
        offset += written
    }
}

@Suite("Stdio", .serialized, .onThreadOfItsOwn)
struct StdioTests {
    @Test("stdin and stdout as pipes: answers flushed, then EOF ends run()")
    func pipes() throws {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        #expect(payrpc_pipe_cloexec(&input) == 0)
        #expect(payrpc_pipe_cloexec(&output) == 0)
        writeAll(input[1], "first\nlater 40 slow\r\n\n   \nlast without newline")
        close(input[1])
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { server in
            try server.attachStdio(input: input[0], output: output[1])
        }
        #expect(running.waitUntilStopped())
        // The server closed its duplicates; the test owns the originals.
        close(input[0])
        close(output[1])
        let answers = readAll(output[0])?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
        #expect(answers.first == "first")
        #expect(answers.last == "")
        #expect(answers.sorted() == ["", "first", "last without newline", "slow"])
        close(output[0])
        #expect(factory.events.count("inputEnded") == 1)
        #expect(factory.events.count("closed") == 1)
        #expect(factory.events.all.first == "open stdio")
    }

    @Test("A large answer stream through a pipe is not cut at EOF")
    func manyLinesThroughPipes() throws {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        #expect(payrpc_pipe_cloexec(&input) == 0)
        #expect(payrpc_pipe_cloexec(&output) == 0)
        let count = 200_000
        let running = try RunningServer(factory: TestHandlerFactory()) { server in
            try server.attachStdio(input: input[0], output: output[1])
        }
        close(input[0])
        let inputWrite = input[1]
        let writer = Thread {
            var text = ""
            for index in 0..<count { text += "{\"id\":\(index)}\n" }
            writeAll(inputWrite, text)
            close(inputWrite)
        }
        writer.start()
        let readerDone = DispatchSemaphore(value: 0)
        let result = ResultHolder()
        let outputRead = output[0]
        let reader = Thread {
            // Bounds that only end a hang: under AddressSanitizer the whole stream takes its time.
            result.text = readAll(outputRead, timeoutMilliseconds: 600_000)
            readerDone.signal()
        }
        reader.start()
        #expect(running.waitUntilStopped())
        close(output[1])
        #expect(readerDone.wait(timeout: .now() + 600) == .success)
        let lines = result.text?.split(separator: "\n") ?? []
        #expect(lines.count == count)
        #expect(lines.last == "{\"id\":\(count - 1)}")
        close(output[0])
    }

    @Test("stdin and stdout as regular files")
    func regularFiles() throws {
        let directory = try makeTemporaryDirectory()
        let inputPath = directory + "/in.ndjson"
        let outputPath = directory + "/out.ndjson"
        defer {
            unlink(inputPath)
            unlink(outputPath)
            rmdir(directory)
        }
        var text = ""
        for index in 0..<3000 { text += "line \(index)\n" }
        text += "later 20 timer\nno newline at the end"
        #expect(FileManager.default.createFile(atPath: inputPath, contents: Data(text.utf8)))
        let inputFD = open(inputPath, O_RDONLY)
        let outputFD = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(inputFD >= 0 && outputFD >= 0)
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { server in
            try server.attachStdio(input: inputFD, output: outputFD)
        }
        #expect(running.waitUntilStopped())
        close(inputFD)
        close(outputFD)
        let written = try #require(FileManager.default.contents(atPath: outputPath))
        let lines = String(decoding: written, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3003)
        #expect(lines[0] == "line 0")
        #expect(lines[2999] == "line 2999")
        // The timer's answer and the last line's race; both are there before the end.
        #expect(Set(lines[3000...3001]) == ["no newline at the end", "timer"])
        #expect(lines[3002] == "")
        #expect(factory.events.count("closed") == 1)
    }

    @Test("stdin as a terminal: lines typed, then ^D ends the input")
    func terminal() throws {
        // A pseudo-terminal: /dev/ptmx, unlocked (TIOCSPTLCK), its number (TIOCGPTN).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        #expect(master >= 0)
        var unlock: Int32 = 0
        #expect(ioctl(master, 0x4004_5431, &unlock) == 0)
        var number: UInt32 = 0
        #expect(ioctl(master, 0x8004_5430, &number) == 0)
        let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        #expect(terminal >= 0)
        #expect(uv_guess_handle(terminal) == UV_TTY)
        var output: [Int32] = [0, 0]
        #expect(payrpc_pipe_cloexec(&output) == 0)
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { server in
            try server.attachStdio(input: terminal, output: output[1])
        }
        // Canonical mode: each line is delivered when its newline is typed; ^D at the start of a
        // line is end of file.
        writeAll(master, "typed line\n")
        writeAll(master, "another\n\u{04}")
        #expect(running.waitUntilStopped())
        close(output[1])
        #expect(readAll(output[0]) == "typed line\nanother\n")
        close(output[0])
        close(terminal)
        close(master)
    }

    @Test("stdout as a terminal")
    func terminalOutput() throws {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        #expect(master >= 0)
        var unlock: Int32 = 0
        #expect(ioctl(master, 0x4004_5431, &unlock) == 0)
        var number: UInt32 = 0
        #expect(ioctl(master, 0x8004_5430, &number) == 0)
        let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        #expect(terminal >= 0)
        var input: [Int32] = [0, 0]
        #expect(payrpc_pipe_cloexec(&input) == 0)
        writeAll(input[1], "to the terminal\n")
        close(input[1])
        let running = try RunningServer(factory: TestHandlerFactory()) { server in
            try server.attachStdio(input: input[0], output: terminal)
        }
        #expect(running.waitUntilStopped())
        close(input[0])
        // The terminal turns "\n" into "\r\n" on its way out.
        var buffer = [UInt8](repeating: 0, count: 256)
        var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 10_000) == 1)
        let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress!, $0.count) }
        #expect(String(decoding: buffer[..<max(0, count)], as: UTF8.self) == "to the terminal\r\n")
        close(terminal)
        close(master)
    }

    @Test("A server that never ran closes its stdio duplicates when it goes away")
    func neverRun() throws {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        #expect(payrpc_pipe_cloexec(&input) == 0)
        #expect(payrpc_pipe_cloexec(&output) == 0)
        let factory = TestHandlerFactory()
        do {
            let server = LibUVServer(configuration: .testDefault, handlerFactory: factory, logger: .init(label: "t"))
            try server.attachStdio(input: input[0], output: output[1])
        }
        #expect(factory.events.all == ["open stdio", "closed"])
        // No reader is left on the input pipe in this process: the server's duplicate is closed.
        // Counted in /proc/self/fd, not by a write failing with EPIPE: a child that another test
        // forks at that moment holds every descriptor until it execs (close-on-exec or not), and
        // the write then succeeded (CI, 2026-12-06, under both sanitizers).
        close(input[0])
        #expect(descriptorsOpen(onTheSamePipeAs: input[1]) == [input[1]])
        close(input[1])
        close(output[1])
        #expect(readAll(output[0]) == "")
        close(output[0])
    }

    @Test("A reader that closes stdout ends the server instead of killing it")
    func stdoutClosedByReader() throws {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        #expect(payrpc_pipe_cloexec(&input) == 0)
        #expect(payrpc_pipe_cloexec(&output) == 0)
        close(output[0])
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { server in
            try server.attachStdio(input: input[0], output: output[1])
        }
        close(input[0])
        close(output[1])
        writeAll(input[1], "nobody reads this\n")
        #expect(running.waitUntilStopped())
        #expect(factory.events.count("closed") == 1)
        close(input[1])
    }

    @Test("/dev/null as stdin: EOF at once, nothing written")
    func devNull() throws {
        let inputFD = open("/dev/null", O_RDONLY)
        var output: [Int32] = [0, 0]
        #expect(payrpc_pipe_cloexec(&output) == 0)
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { server in
            try server.attachStdio(input: inputFD, output: output[1])
        }
        #expect(running.waitUntilStopped())
        close(inputFD)
        close(output[1])
        #expect(readAll(output[0]) == "")
        close(output[0])
        #expect(factory.events.count("inputEnded") == 1)
    }

    @Test("A socketpair as stdio, alongside a TCP listener; shutdown() drains both")
    func socketPairAndListener() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { server in
            try server.attachStdio(input: pair[0], output: pair[0])
            try server.listen(.tcp(host: "127.0.0.1", port: 0))
        }
        close(pair[0])
        writeAll(pair[1], "over the pair\n")
        var buffer = [UInt8](repeating: 0, count: 100)
        var poller = pollfd(fd: pair[1], events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 10_000) == 1)
        let count = buffer.withUnsafeMutableBytes { read(pair[1], $0.baseAddress!, $0.count) }
        #expect(String(decoding: buffer[..<max(0, count)], as: UTF8.self) == "over the pair\n")
        let client = try SocketClient(tcp: running.address)
        try client.send("tcp\n")
        #expect(try client.readLine() == "tcp")
        running.server.shutdown()
        #expect(try client.readLine() == nil)
        client.close()
        #expect(running.waitUntilStopped())
        close(pair[1])
    }
}

final class ResultHolder: @unchecked Sendable {
    var text: String?
}
