import Foundation
import PayRPCProcess
import PayRPCTestSupport
import Subprocess
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Real children (`/bin/cat`, `/bin/sh`): pipes both ways, exit status, signals, reaping.
@Suite struct SpawnedProcessTests {
    /// Everything `fd` yields until EOF, read on a thread of its own; nil after `timeout`.
    static func readAll(_ fd: Int32, timeout: Double = 20) async -> String? {
        await EventWait.blocking(timeout: timeout) {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                bytes += chunk[..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    static func write(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
    }

    /// Whether the kernel still has an entry (running or zombie) for `pid`.
    static func exists(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 || errno != ESRCH }

    @Test func catEchoesStdinAndExitsAtEOF() async throws {
        let cat = try await SpawnedProcess.start("/bin/cat")
        #expect(cat.processID > 0)
        #expect(cat.exitStatus == nil)
        Self.write("one\ntwo\n", to: cat.standardInput)
        cat.closeInput()
        #expect(cat.standardInput == -1)
        #expect(await Self.readAll(cat.standardOutput) == "one\ntwo\n")
        #expect(await cat.waitForExit(timeout: 120) == .exited(0))
        #expect(cat.exitStatus == .exited(0))
        // The exit is reported while the child is still a zombie; the reaping follows.
        #expect(await cat.waitUntilReaped(timeout: 120))
        #expect(!Self.exists(cat.processID), "reaped, not left a zombie")
    }

    @Test func childThatExitsEarlyReportsItsCode() async throws {
        let child = try await SpawnedProcess.start("/bin/sh", arguments: ["-c", "echo bye >&2; exit 3"], standardError: .pipe)
        #expect(await Self.readAll(child.standardError) == "bye\n")
        #expect(await Self.readAll(child.standardOutput) == "")
        let status = await child.waitForExit(timeout: 120)
        #expect(status == .exited(3))
        #expect(status?.code == 3)
        // Writing to a child that has gone fails instead of blocking or killing us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let written = [UInt8(0x41)].withUnsafeBytes { Glibc.write(child.standardInput, $0.baseAddress, 1) }
        #expect(written == -1 && errno == EPIPE)
    }

    @Test func killedChildReportsTheSignal() async throws {
        let cat = try await SpawnedProcess.start("/bin/cat", standardOutput: .discard)
        #expect(cat.standardOutput == -1)
        cat.signal(SIGKILL)
        let status = await cat.waitForExit(timeout: 120)
        #expect(status == .signaled(SIGKILL))
        #expect(status?.code == SIGKILL)
        #expect(await cat.waitUntilReaped(timeout: 120))
        #expect(!Self.exists(cat.processID))
    }

    @Test func stopEscalatesToSignalsWhenStdinEOFIsIgnored() async throws {
        // `sleep` does not read stdin and ignores SIGTERM (ignored signals stay ignored across
        // exec): only SIGKILL ends it.
        let stubborn = try await SpawnedProcess.start("/bin/sh", arguments: ["-c", "trap '' TERM; exec sleep 600"])
        let status = await stubborn.stop(grace: 0.5)
        #expect(status == .signaled(SIGKILL))
        #expect(stubborn.standardOutput == -1 && stubborn.standardInput == -1)
        #expect(await stubborn.stop(grace: 0.5) == .signaled(SIGKILL), "idempotent")
    }

    /// The blocking calls are for synchronous commands' own threads; a test thread of the
    /// cooperative pool must not block, so they run on a thread of their own.
    @Test func blockingStopEndsAChildThatDrainsAtEOF() async throws {
        // A long deadline: the whole suite in parallel can keep the pool (which starts the child) busy.
        let statuses = await EventWait.blocking(timeout: 120) { () -> [TerminationStatus?] in
            guard let cat = try? SpawnedProcess.startBlocking("/bin/cat", standardOutput: .discard) else { return [] }
            return [cat.stopBlocking(grace: 20), cat.waitForExitBlocking(timeout: 1)]
        }
        #expect(statuses == [.exited(0), .exited(0)], "a second waiter sees the exit too")
    }

    @Test func environmentIsInheritedWithOverrides() async throws {
        let child = try await SpawnedProcess.start(
            "/bin/sh", arguments: ["-c", "echo \"$PAYRPC_PROCESS_TEST:${HOME:+home}\""],
            environment: ["PAYRPC_PROCESS_TEST": "set"], standardInput: .discard)
        #expect(await Self.readAll(child.standardOutput) == "set:home\n")
        #expect(await child.waitForExit(timeout: 120) == .exited(0))
    }

    @Test func detachedPipesAreTheCallersToClose() async throws {
        let cat = try await SpawnedProcess.start("/bin/cat")
        let pipes = cat.detachStandardStreams()
        #expect(cat.standardInput == -1 && cat.standardOutput == -1 && pipes.error == -1)
        Self.write("kept\n", to: pipes.input)
        close(pipes.input)
        #expect(await Self.readAll(pipes.output) == "kept\n")
        close(pipes.output)
        #expect(await cat.waitForExit(timeout: 60) == .exited(0))
    }

    /// A synchronous caller may be on a thread of the cooperative pool (`payrpc call --spawn`'s
    /// connection is made from synchronous code): with every pool thread blocked in
    /// `startBlocking` at once (twice as many starts as threads), the starts still complete (their
    /// tasks run off the pool).
    @Test func blockingStartsFromEveryPoolThreadAtOnce() async throws {
        let starts = 2 * ProcessInfo.processInfo.activeProcessorCount
        let started = DispatchSemaphore(value: 0)
        for _ in 0..<starts {
            Task {
                if (try? SpawnedProcess.startBlocking("/bin/true", standardInput: .discard, standardOutput: .discard)) != nil {
                    started.signal()
                }
            }
        }
        // Waits on a thread of its own: these tasks need the pool's threads to begin, and queued
        // behind the rest of the suite (every test at once, slowed by a sanitizer) they began more
        // than 120 s later, while this test, blocking a pool thread, held back one of the two.
        // The deadline only ends a hang.
        let count = await EventWait.blocking(timeout: 660) { () -> Int in
            var count = 0
            while count < starts, started.wait(timeout: .now() + 600) == .success { count += 1 }
            return count
        }
        #expect(count == starts)
    }

    /// Every thread of the pool blocked in a stop at once (twice as many stops as threads): each
    /// child's exit is still seen at once. (swift-subprocess reports an exit through a task on the
    /// pool, so before ``SpawnedProcess`` watched exits itself these stops waited out their grace,
    /// signalled a zombie and gave up.)
    @Test func blockingStopsFromEveryPoolThreadAtOnceSeeTheirExits() async throws {
        let count = 2 * ProcessInfo.processInfo.activeProcessorCount
        var children: [SpawnedProcess] = []
        for _ in 0..<count { children.append(try await SpawnedProcess.start("/bin/cat", standardOutput: .discard)) }
        let begun = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        let stops = children.map { child in
            Task { () -> TerminationStatus? in
                begun.signal()
                defer { stopped.signal() }
                return child.stopBlocking(grace: 100)
            }
        }
        // Waits on a thread of its own for the stops to begin (queued behind the rest of the suite,
        // they may begin minutes later; that bound only ends a hang), then gives them one deadline,
        // well inside the first grace: only a seen exit ends a stop in time.
        let finished = await EventWait.blocking(timeout: 700) { () -> Int in
            guard begun.wait(timeout: .now() + 600) == .success else { return 0 }
            let deadline = DispatchTime.now() + 60
            var finished = 0
            while finished < count, stopped.wait(timeout: deadline) == .success { finished += 1 }
            return finished
        }
        #expect(finished == count)
        guard finished == count else { return }
        for stop in stops { #expect(await stop.value == .exited(0)) }
    }

    @Test func aDescriptorOfTheCallersAndAWorkingDirectory() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-process-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try FileHandle(forWritingTo: file)
        defer { try? output.close() }
        let child = try await SpawnedProcess.start(
            "/bin/sh", arguments: ["-c", "pwd"], workingDirectory: "/usr",
            standardInput: .discard, standardOutput: .descriptor(output.fileDescriptor))
        #expect(child.standardOutput == -1)
        #expect(await child.waitForExit(timeout: 60) == .exited(0))
        #expect(try String(contentsOf: file, encoding: .utf8) == "/usr\n")
    }

    @Test func missingExecutableThrows() async {
        await #expect(throws: (any Error).self) {
            _ = try await SpawnedProcess.start("/nonexistent/payrpc")
        }
        let threw = await EventWait.blocking(timeout: 120) {
            (try? SpawnedProcess.startBlocking("/nonexistent/payrpc")) == nil
        }
        #expect(threw == true)
    }
}
