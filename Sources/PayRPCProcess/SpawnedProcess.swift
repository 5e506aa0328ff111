import Dispatch
public import Subprocess
import SystemPackage
import PayRPCSync
#if canImport(Glibc)
import Glibc
#endif

/// A child process that outlives the call that started it: the one way payrpc's tools and tests
/// spawn (`payrpc call --spawn`, `payrpc-bench --spawn`, the end-to-end tests' server).
///
/// Spawning, waiting and reaping are swift-subprocess's. Its `run(...) { execution in ... }` is
/// scoped to a closure, and these callers keep a child across many calls (the bench reads a
/// server's stdout at full rate from a pinned thread for a whole run; a test talks to one server
/// throughout), so the closure runs in a task of its own: it reports the process id and returns,
/// and `run` then waits for the exit and reaps the child (no zombie, even when this object is
/// dropped first). The pipes are plain descriptors created here and handed to the child, so the
/// caller reads and writes them with whatever it already uses (`poll(2)`, a `FileHandle`).
///
/// Measured against the hand-written `posix_spawn` it replaces (release build, 300 children of
/// `/bin/cat`, spawn + one byte echoed + exit + reap): 2.1 ms against 1.8 ms a child, about
/// 0.3 ms more per spawn. Building swift-subprocess 1.0.2 and swift-system 1.8.1 clean costs
/// about 15 s in debug (a 20 s clean build of an empty package using it, against 5 s without).
public final class SpawnedProcess: Sendable {
    /// What becomes of one of the child's standard streams.
    public enum Stream: Sendable {
        /// A pipe; this side's end is ``standardInput``, ``standardOutput`` or ``standardError``.
        case pipe
        /// The child shares this process's stream.
        case inherit
        /// `/dev/null`.
        case discard
        /// This descriptor of the caller's (a regular file, say), given to the child as the
        /// stream; the caller still owns it and closes it when it likes.
        case descriptor(Int32)
    }

    /// The child's process id.
    public let processID: pid_t
    private let descriptors: Lock<[Int32]>
    private let exit: Task<TerminationStatus, any Error>
    private let record = ExitRecord()

    /// Starts `executable` (a path) with `arguments`.
    /// - Parameters:
    ///   - environment: variables set (or, with nil, removed) on top of this process's environment.
    ///   - workingDirectory: the child's current directory; this process's when nil.
    ///   - standardInput, standardOutput, standardError: what each of the child's streams is.
    /// - Throws: `SubprocessError` when the child cannot be started (no such file, not executable),
    ///   or the `pipe(2)` error.
    public static func start(
        _ executable: String, arguments: [String] = [], environment: [String: String?] = [:], workingDirectory: String? = nil,
        standardInput: Stream = .pipe, standardOutput: Stream = .pipe, standardError: Stream = .inherit
    ) async throws -> SpawnedProcess {
        let launch = try Launch(
            executable, arguments, environment, workingDirectory, [standardInput, standardOutput, standardError], on: nil)
        return try await launch.started.value
    }

    /// Like ``start(_:arguments:environment:workingDirectory:standardInput:standardOutput:standardError:)``
    /// for synchronous callers (the bench's load loop on a pinned thread of its own, a test's
    /// synchronous `init`): blocks the calling thread until the child runs. The start's tasks run
    /// on a queue of their own, not on the cooperative pool, so the blocked thread may be one of
    /// the pool's (with every pool thread blocked here, tasks on the pool would never run).
    public static func startBlocking(
        _ executable: String, arguments: [String] = [], environment: [String: String?] = [:], workingDirectory: String? = nil,
        standardInput: Stream = .pipe, standardOutput: Stream = .pipe, standardError: Stream = .inherit
    ) throws -> SpawnedProcess {
        let launch = try Launch(
            executable, arguments, environment, workingDirectory, [standardInput, standardOutput, standardError],
            on: StartExecutor.shared)
        let outcome = Lock<Result<SpawnedProcess, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: StartExecutor.shared) {
            let result: Result<SpawnedProcess, any Error>
            do { result = .success(try await launch.started.value) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    fileprivate init(processID: pid_t, descriptors: [Int32], exit: Task<TerminationStatus, any Error>) {
        self.processID = processID
        self.descriptors = Lock(descriptors)
        self.exit = exit
        Task { [record] in
            record.set((try? await exit.value) ?? .exited(-1))
        }
    }

    deinit {
        if record.status.withLock({ $0 }) == nil { Glibc.kill(processID, SIGKILL) }
        for fd in descriptors.withLock({ $0 }) where fd >= 0 { Glibc.close(fd) }
    }

    /// This side of the child's stdin (blocking; make it non-blocking with `fcntl` if needed), or
    /// -1 when it is not a pipe or has been closed.
    public var standardInput: Int32 { descriptors.withLock { $0[0] } }
    /// This side of the child's stdout, or -1.
    public var standardOutput: Int32 { descriptors.withLock { $0[1] } }
    /// This side of the child's stderr, or -1.
    public var standardError: Int32 { descriptors.withLock { $0[2] } }

    /// Hands this side of the three pipes (-1 where there is none) to the caller, who closes them
    /// from now on: for a reader such as a `FileHandle` that must decide when its descriptor closes
    /// (a readability handler may still be running when its owner lets go).
    public func detachStandardStreams() -> (input: Int32, output: Int32, error: Int32) {
        descriptors.withLock { fds in
            defer { fds = [-1, -1, -1] }
            return (fds[0], fds[1], fds[2])
        }
    }

    /// Closes this side of the child's stdin: the child reads EOF.
    public func closeInput() { close(stream: 0) }
    /// Closes this side of the child's stdout (and stderr): what it writes there fails with EPIPE.
    public func closeOutput() {
        close(stream: 1)
        close(stream: 2)
    }

    private func close(stream: Int) {
        let fd = descriptors.withLock { fds in
            defer { fds[stream] = -1 }
            return fds[stream]
        }
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Sends `signal` to the child unless it has been reaped (its id may then belong to another).
    public func signal(_ signal: Int32) {
        record.status.withLock { status in
            if status == nil { _ = Glibc.kill(processID, signal) }
        }
    }

    /// How the child ended, once it has; nil while it runs.
    public var exitStatus: TerminationStatus? { record.status.withLock { $0 } }

    /// Waits for the child to exit: its status, or nil when `timeout` seconds pass first.
    public func waitForExit(timeout: Double) async -> TerminationStatus? {
        // Two racers, not a task group: a group would wait for its exit racer, which cannot be
        // cancelled, and so for the exit itself.
        let exit = self.exit
        return await withCheckedContinuation { (continuation: CheckedContinuation<TerminationStatus?, Never>) in
            let once = ResumeOnce(continuation)
            let deadline = Task {
                try? await Task.sleep(for: .seconds(timeout))  // the deadline, not a polling step
                once.resume(nil)
            }
            Task {
                once.resume(try? await exit.value)
                deadline.cancel()
            }
        }
    }

    /// Like ``waitForExit(timeout:)`` for synchronous callers: blocks the calling thread.
    public func waitForExitBlocking(timeout: Double) -> TerminationStatus? {
        guard record.exited.wait(timeout: .now() + timeout) == .success else { return nil }
        record.exited.signal()  // let any other waiter through too
        return exitStatus
    }

    /// Ends the child and reaps it: closes its stdin and waits up to `grace` seconds for it to exit
    /// by itself, then SIGTERM and another `grace`, then SIGKILL. Closes every pipe. Idempotent.
    /// Blocks the calling thread; for synchronous callers.
    @discardableResult
    public func stopBlocking(grace: Double) -> TerminationStatus? {
        closeInput()
        var status = waitForExitBlocking(timeout: grace)
        if status == nil {
            signal(SIGTERM)
            status = waitForExitBlocking(timeout: grace)
        }
        if status == nil {
            signal(SIGKILL)
            status = waitForExitBlocking(timeout: 60)
        }
        closeOutput()
        return status
    }

    /// ``stopBlocking(grace:)`` for asynchronous callers.
    @discardableResult
    public func stop(grace: Double) async -> TerminationStatus? {
        closeInput()
        var status = await waitForExit(timeout: grace)
        if status == nil {
            signal(SIGTERM)
            status = await waitForExit(timeout: grace)
        }
        if status == nil {
            signal(SIGKILL)
            status = await waitForExit(timeout: 60)
        }
        closeOutput()
        return status
    }
}

extension TerminationStatus {
    /// The exit code, or the number of the signal that ended the process (as Foundation's
    /// `Process.terminationStatus` reports it).
    public var code: Int32 {
        switch self {
        case .exited(let code): return code
        case .signaled(let signal): return signal
        }
    }
}

/// How a child ended, set once by the task that awaited swift-subprocess's result; the semaphore
/// wakes blocking waiters (each signals it again for the next).
private final class ExitRecord: Sendable {
    let status = Lock<TerminationStatus?>(nil)
    let exited = DispatchSemaphore(value: 0)

    func set(_ value: TerminationStatus) {
        status.withLock { $0 = value }
        exited.signal()
    }
}

/// A continuation resumed by whichever of its racers comes first (an event or its deadline); the
/// later ones are ignored. Used here for exits and by the tests' `EventWait`.
public final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: Lock<CheckedContinuation<T?, Never>?>

    /// Wraps `continuation`, which is resumed exactly once.
    public init(_ continuation: CheckedContinuation<T?, Never>) { self.continuation = Lock(continuation) }

    /// Resumes the continuation with `value` unless a racer already has.
    public func resume(_ value: T?) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}

/// Where the tasks of ``SpawnedProcess/startBlocking(_:arguments:environment:workingDirectory:standardInput:standardOutput:standardError:)``
/// run: a serial dispatch queue, which gets a thread of its own however many of the cooperative
/// pool's are blocked. Its jobs never block (they spawn and await), so one queue serves them all.
private final class StartExecutor: TaskExecutor {
    static let shared = StartExecutor()
    private let queue = DispatchQueue(label: "payrpc.spawn")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// One start: the pipes, and the task that runs swift-subprocess's closure for the child's life
/// (on `executor` when one is given; on the global executor otherwise).
private struct Launch: Sendable {
    let started: Task<SpawnedProcess, any Error>

    init(
        _ executable: String, _ arguments: [String], _ environment: [String: String?], _ workingDirectory: String?,
        _ streams: [SpawnedProcess.Stream], on executor: (any TaskExecutor)?
    ) throws {
        var ours: [Int32] = [-1, -1, -1]
        var theirs: [(fd: Int32, close: Bool)] = []
        do {
            for (index, stream) in streams.enumerated() {
                switch stream {
                case .inherit:
                    theirs.append((Int32(index), false))
                case .descriptor(let fd):
                    theirs.append((fd, false))
                case .discard:
                    let fd = open("/dev/null", (index == 0 ? O_RDONLY : O_WRONLY) | O_CLOEXEC)
                    guard fd >= 0 else { throw SpawnError(operation: "open /dev/null", code: errno) }
                    theirs.append((fd, true))
                case .pipe:
                    var ends: [Int32] = [-1, -1]
                    guard pipe(&ends) == 0 else { throw SpawnError(operation: "pipe", code: errno) }
                    for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
                    ours[index] = index == 0 ? ends[1] : ends[0]
                    theirs.append((index == 0 ? ends[0] : ends[1], true))
                }
            }
        } catch {
            for fd in ours where fd >= 0 { close(fd) }
            for end in theirs where end.close { close(end.fd) }
            throw error
        }
        var overrides: [Environment.Key: String?] = [:]
        for (name, value) in environment { overrides[Environment.Key(stringLiteral: name)] = value }
        let configuration = Configuration(
            executable: .path(.init(executable)), arguments: Arguments(arguments),
            environment: Environment.inherit.updating(overrides),
            workingDirectory: workingDirectory.map { .init($0) })
        let child = theirs
        let pid = PIDHandoff()
        let exit = Task<TerminationStatus, any Error>(executorPreference: executor) {
            defer { pid.finish(nil) }
            let result = try await Subprocess.run(
                configuration,
                input: .fileDescriptor(.init(rawValue: child[0].fd), closeAfterSpawningProcess: child[0].close),
                output: .fileDescriptor(.init(rawValue: child[1].fd), closeAfterSpawningProcess: child[1].close),
                error: .fileDescriptor(.init(rawValue: child[2].fd), closeAfterSpawningProcess: child[2].close)
            ) { execution in
                pid.finish(execution.processIdentifier.value)
            }
            return result.terminationStatus
        }
        let descriptors = ours
        started = Task(executorPreference: executor) {
            guard let processID = await pid.value else {
                for fd in descriptors where fd >= 0 { close(fd) }
                _ = try await exit.value  // throws why it did not start
                throw SpawnError(operation: "spawn \(executable)", code: ECHILD)
            }
            return SpawnedProcess(processID: processID, descriptors: descriptors, exit: exit)
        }
    }
}

/// The child's id, passed once from inside swift-subprocess's closure to whoever awaits it.
private final class PIDHandoff: Sendable {
    private let state = Lock<(value: pid_t?, done: Bool, waiter: CheckedContinuation<pid_t?, Never>?)>((nil, false, nil))

    func finish(_ value: pid_t?) {
        let waiter = state.withLock { state -> CheckedContinuation<pid_t?, Never>? in
            guard !state.done else { return nil }
            state.done = true
            state.value = value
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: value)
    }

    var value: pid_t? {
        get async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> pid_t?? in
                    if state.done { return .some(state.value) }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}

/// A system call that failed while preparing a child's streams.
public struct SpawnError: Error, CustomStringConvertible {
    /// What was being done.
    public let operation: String
    /// The `errno` value.
    public let code: Int32

    /// `pipe: Too many open files`.
    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
