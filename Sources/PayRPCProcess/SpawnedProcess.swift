import CPipe
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
/// Spawning and reaping are swift-subprocess's. Its `run(...) { execution in ... }` is scoped to a
/// closure, and these callers keep a child across many calls (the bench reads a server's stdout at
/// full rate from a pinned thread for a whole run; a test talks to one server throughout), so the
/// closure runs in a task of its own: it reports the process id, records the exit when it comes
/// (``ExitWatch``, independent of the cooperative pool) and returns, and `run` then reaps the
/// child (no zombie, even when this object is dropped first). The pipes are plain descriptors created here and handed to the child, so the
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
    private let record: ExitRecord

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
            executable, arguments, environment, workingDirectory, [standardInput, standardOutput, standardError])
        return try await launch.started.value
    }

    /// Like ``start(_:arguments:environment:workingDirectory:standardInput:standardOutput:standardError:)``
    /// for synchronous callers (the bench's load loop on a pinned thread of its own, a test's
    /// synchronous `init`): blocks the calling thread until the child runs. A child's tasks run on
    /// a queue of their own (``ChildExecutor``), not on the cooperative pool, so the blocked thread
    /// may be one of the pool's.
    public static func startBlocking(
        _ executable: String, arguments: [String] = [], environment: [String: String?] = [:], workingDirectory: String? = nil,
        standardInput: Stream = .pipe, standardOutput: Stream = .pipe, standardError: Stream = .inherit
    ) throws -> SpawnedProcess {
        let launch = try Launch(
            executable, arguments, environment, workingDirectory, [standardInput, standardOutput, standardError])
        let outcome = Lock<Result<SpawnedProcess, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: ChildExecutor.shared) {
            let result: Result<SpawnedProcess, any Error>
            do { result = .success(try await launch.started.value) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    fileprivate init(processID: pid_t, descriptors: [Int32], record: ExitRecord) {
        self.processID = processID
        self.descriptors = Lock(descriptors)
        self.record = record
    }

    deinit {
        if record.status == nil { Glibc.kill(processID, SIGKILL) }
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
        record.unlessExited { _ = Glibc.kill(processID, signal) }
    }

    /// How the child ended, once it has; nil while it runs.
    public var exitStatus: TerminationStatus? { record.status }

    /// Waits for the child to exit: its status, or nil when `timeout` seconds pass first.
    public func waitForExit(timeout: Double) async -> TerminationStatus? {
        await withCheckedContinuation { continuation in
            record.notify(ResumeOnce(continuation), timeout: timeout)
        }
    }

    /// Waits until the child has been reaped, so that its id is free for another process: true,
    /// or false when `timeout` seconds pass first. ``waitForExit(timeout:)`` answers as soon as
    /// the child exits, which is a moment before it is reaped. The wait holds a thread of the
    /// global dispatch queue, not one of the cooperative pool.
    public func waitUntilReaped(timeout: Double) async -> Bool {
        let reaped = record.reaped
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let done = reaped.wait(timeout: .now() + timeout) == .success
                if done { reaped.signal() }  // let any other waiter through too
                continuation.resume(returning: done)
            }
        }
    }

    /// Like ``waitForExit(timeout:)`` for synchronous callers: blocks the calling thread.
    public func waitForExitBlocking(timeout: Double) -> TerminationStatus? {
        guard record.exited.wait(timeout: .now() + timeout) == .success else { return nil }
        record.exited.signal()  // let any other waiter through too
        return exitStatus
    }

    /// Ends the child: closes its stdin and waits up to `grace` seconds for it to exit by itself,
    /// then SIGTERM and another `grace`, then SIGKILL. Closes every pipe. Idempotent. The child is
    /// reaped a moment after it exits (``waitUntilReaped(timeout:)`` waits for that).
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

/// How a child ended, set once, and everyone waiting for that.
///
/// The status is set by ``ExitWatch`` the moment the child exits (before swift-subprocess reaps
/// it), which then wakes blocking waiters (the semaphore, which each waiter signals again for the
/// next) and resumes asynchronous ones directly; their deadlines are timers on ``ChildExecutor``'s
/// queue, so a wait costs no task of its own. Nothing on the way needs the cooperative pool, so
/// an exit is seen even while every pool thread is blocked or busy (a
/// ``SpawnedProcess/stopBlocking(grace:)`` on each, or long synchronous tests beside).
private final class ExitRecord: Sendable {
    private struct State {
        var status: TerminationStatus?
        var waiters: [ResumeOnce<TerminationStatus>] = []
    }

    private let state = Lock(State())
    /// Signalled once the status is set.
    let exited = DispatchSemaphore(value: 0)
    /// Signalled once swift-subprocess has reaped the child (after ``exited``: the status is set
    /// while the child is still a zombie).
    let reaped = DispatchSemaphore(value: 0)

    /// The status, once set.
    var status: TerminationStatus? { state.withLock { $0.status } }

    /// Records how the child ended and wakes every waiter; the first call wins (``ExitWatch`` and
    /// swift-subprocess's reaping both report the one exit).
    func set(_ value: TerminationStatus) {
        let waiters = state.withLock { state -> [ResumeOnce<TerminationStatus>]? in
            guard state.status == nil else { return nil }
            state.status = value
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return }
        exited.signal()
        for waiter in waiters { waiter.resume(value) }
    }

    /// Resumes `waiter` with the status once it is set, or with nil after `timeout` seconds.
    func notify(_ waiter: ResumeOnce<TerminationStatus>, timeout: Double) {
        let known = state.withLock { state -> TerminationStatus? in
            if state.status == nil { state.waiters.append(waiter) }
            return state.status
        }
        if let known { return waiter.resume(known) }
        ChildExecutor.shared.after(seconds: timeout) { waiter.resume(nil) }
    }

    /// Runs `body` while holding the record, unless the child has exited (and been reaped: its id
    /// may then belong to another process).
    func unlessExited(_ body: () -> Void) {
        state.withLock { state in
            if state.status == nil { body() }
        }
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

/// Where every child's tasks run (its start, swift-subprocess's wait for its exit, the record of
/// that exit) and where exit deadlines fire: a serial dispatch queue, which gets a thread of its
/// own however many of the cooperative pool's are blocked (a blocking start or stop may be called
/// from any pool thread). Its jobs never block (they spawn and await), so one queue serves them all.
private final class ChildExecutor: TaskExecutor {
    static let shared = ChildExecutor()
    private let queue = DispatchQueue(label: "payrpc.spawn")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs `body` on the queue after `seconds`.
    func after(seconds: Double, _ body: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + max(0, seconds), execute: body)
    }
}

/// One start: the pipes, and the task that runs swift-subprocess's closure for the child's life
/// (on ``ChildExecutor``) and records its exit.
private struct Launch: Sendable {
    let started: Task<SpawnedProcess, any Error>

    init(
        _ executable: String, _ arguments: [String], _ environment: [String: String?], _ workingDirectory: String?,
        _ streams: [SpawnedProcess.Stream]
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
                    // Close-on-exec from the start: a child another thread spawns meanwhile
                    // must not inherit this one's pipes (CPipe says why).
                    var ends: [Int32] = [-1, -1]
                    guard payrpc_pipe_cloexec(&ends) == 0 else { throw SpawnError(operation: "pipe2", code: errno) }
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
        let record = ExitRecord()
        let exit = Task<Void, any Error>(executorPreference: ChildExecutor.shared) {
            defer {
                pid.finish(nil)
                record.reaped.signal()
            }
            do {
                let result = try await Subprocess.run(
                    configuration,
                    input: .fileDescriptor(.init(rawValue: child[0].fd), closeAfterSpawningProcess: child[0].close),
                    output: .fileDescriptor(.init(rawValue: child[1].fd), closeAfterSpawningProcess: child[1].close),
                    error: .fileDescriptor(.init(rawValue: child[2].fd), closeAfterSpawningProcess: child[2].close)
                ) { execution in
                    let processID = execution.processIdentifier.value
                    pid.finish(processID)
                    // The child stays a zombie until this closure returns (swift-subprocess reaps
                    // it after), so the watch cannot lose it to the reaping.
                    if let status = await ExitWatch.status(of: processID) { record.set(status) }
                }
                record.set(result.terminationStatus)
            } catch {
                record.set(.exited(-1))
                throw error
            }
        }
        let descriptors = ours
        started = Task(executorPreference: ChildExecutor.shared) {
            guard let processID = await pid.value else {
                for fd in descriptors where fd >= 0 { close(fd) }
                _ = try await exit.value  // throws why it did not start
                throw SpawnError(operation: "spawn \(executable)", code: ECHILD)
            }
            return SpawnedProcess(processID: processID, descriptors: descriptors, record: record)
        }
    }
}

/// Waits for a child to exit on a thread of its own, without reaping it: `waitid(2)` with
/// `WNOWAIT`, on a dispatch queue of its own (which, like ``ChildExecutor``'s, gets a thread of its
/// own however many others are blocked).
///
/// swift-subprocess learns of the exit on its monitor thread but hands it on, and finishes its run,
/// through an unstructured task on the cooperative pool (`withUncancelledTask`, its clean-up
/// handler): while the pool's threads are all busy (a blocking stop on each, long synchronous work
/// beside) the exit would go unrecorded. Its status, read here as swift-subprocess reads it when it
/// reaps, is recorded at once.
private enum ExitWatch {
    /// How `processID` ended, once it has; nil when it cannot be waited for (not this process's
    /// child any more), in which case swift-subprocess's own report records the exit.
    static func status(of processID: pid_t) async -> TerminationStatus? {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "payrpc.spawn.exit").async { continuation.resume(returning: peek(processID)) }
        }
    }

    private static func peek(_ processID: pid_t) -> TerminationStatus? {
        var info = siginfo_t()
        while waitid(P_PID, id_t(processID), &info, WEXITED | WNOWAIT) != 0 {
            guard errno == EINTR else { return nil }
        }
        let status = info._sifields._sigchld.si_status
        switch info.si_code {
        case Int32(CLD_EXITED): return .exited(status)
        case Int32(CLD_KILLED), Int32(CLD_DUMPED): return .signaled(status)
        default: return nil
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
