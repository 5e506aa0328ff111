import CLibUV
import PayRPCCore
import PayRPCSync
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One libuv loop and the ways back onto it: the ``EventLoop`` of a ``LibUVServer``.
///
/// `execute` appends to a locked queue and wakes the loop with `uv_async_send`; wake-ups
/// coalesce, so each async callback drains the whole queue. Called on the running loop's own
/// thread, it appends to an unlocked queue that a prepare handle runs before the loop next blocks
/// (no lock, no system call). `schedule(after:)` starts a
/// `uv_timer_t`. The loop also owns what every connection of the loop shares: the read buffer
/// (reads on one loop never overlap) and the list of connections whose output is to be flushed at
/// the end of the current callback.
/// `@unchecked Sendable`: libuv handles are touched on the loop thread only; other threads use the locked mailbox.
final class LibUVEventLoop: EventLoop, @unchecked Sendable {
    /// The libuv loop; touched on the loop thread only (and before `run`, by its creator).
    nonisolated(unsafe) let uvLoop: UnsafeMutablePointer<uv_loop_t>
    /// Why the loop could not be created, if it could not.
    let initError: TransportError?

    nonisolated(unsafe) private let asyncHandle: UnsafeMutableRawPointer
    nonisolated(unsafe) private let prepareHandle: UnsafeMutableRawPointer
    private let loopThread = Atomic<UInt>(0)
    /// Set once `run` has made its thread the loop thread.
    private let isRunning = Atomic<Bool>(false)

    /// Jobs `execute`d from other threads, and whether the loop still takes them (not after
    /// ``close()``); `uv_async_send` is called under this lock, so `close()` cannot close the
    /// async handle in between.
    private struct CrossThreadJobs {
        var queued: [@Sendable () -> Void] = []
        var accepted = true
    }

    private let crossThread = Lock(CrossThreadJobs())

    // Loop-thread state.
    private var draining: [@Sendable () -> Void] = []
    /// Jobs `execute`d on the loop thread itself: no lock, no wake-up; run before the loop polls.
    private var localJobs: [@Sendable () -> Void] = []
    private var runningLocalJobs: [@Sendable () -> Void] = []
    private var pendingFlush: [StreamConnection] = []
    /// The open timers, each at its ``UVTimer/registryIndex``: an array, not a dictionary keyed by
    /// `ObjectIdentifier`, whose first use at start looked its `Hashable` conformance up (two
    /// scans of the binary's conformance records at every start).
    private var timers: [UVTimer] = []
    private(set) var isClosed = false
    private let handlesInitialized: Bool

    /// The read buffer every stream of this loop reads into (`alloc_cb`).
    let readBuffer: UnsafeMutableRawPointer
    /// Its size.
    let readBufferSize = 64 * 1024

    init() {
        uvLoop = .allocate(capacity: 1)
        asyncHandle = malloc(uv_handle_size(UV_ASYNC))!
        prepareHandle = malloc(uv_handle_size(UV_PREPARE))!
        readBuffer = .allocate(byteCount: readBufferSize, alignment: 16)
        loopThread.store(currentThreadID(), ordering: .releasing)

        let loopCode = uv_loop_init(uvLoop)
        guard loopCode == 0 else {
            initError = TransportError(operation: "uv_loop_init", code: loopCode)
            handlesInitialized = false
            isClosed = true
            crossThread.withLock { $0.accepted = false }
            return
        }
        let asyncCode = uv_async_init(uvLoop, payrpc_async(asyncHandle), asyncCallback)
        guard asyncCode == 0 else {
            uv_loop_close(uvLoop)
            initError = TransportError(operation: "uv_async_init", code: asyncCode)
            handlesInitialized = false
            isClosed = true
            crossThread.withLock { $0.accepted = false }
            return
        }
        uv_prepare_init(uvLoop, payrpc_prepare(prepareHandle))
        initError = nil
        handlesInitialized = true
        uvLoop.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        payrpc_set_handle_data(asyncHandle, Unmanaged.passUnretained(self).toOpaque())
        payrpc_set_handle_data(prepareHandle, Unmanaged.passUnretained(self).toOpaque())
        // The prepare handle runs right before the loop blocks: a last chance to flush output that
        // was written outside the callbacks that flush explicitly. It never keeps the loop alive.
        uv_prepare_start(payrpc_prepare(prepareHandle), prepareCallback)
        uv_unref(payrpc_handle(prepareHandle))
    }

    deinit {
        readBuffer.deallocate()
        guard handlesInitialized else {
            free(asyncHandle)
            free(prepareHandle)
            uvLoop.deallocate()
            return
        }
        // A loop whose handles are still open cannot be freed: leak it rather than crash.
        guard isClosed else { return }
        // One turn runs the close callbacks still pending.
        uv_run(uvLoop, UV_RUN_NOWAIT)
        guard uv_loop_close(uvLoop) == 0 else { return }
        free(asyncHandle)
        free(prepareHandle)
        uvLoop.deallocate()
    }

    // MARK: - EventLoop

    func execute(_ job: @escaping @Sendable () -> Void) {
        if isRunning.load(ordering: .acquiring) && inLoopThread {
            // On the loop already: the prepare callback runs it before the loop next blocks.
            if !isClosed { localJobs.append(job) }
            return
        }
        crossThread.withLock { jobs in
            guard jobs.accepted else { return }
            jobs.queued.append(job)
            if jobs.queued.count == 1 {
                // Under the lock, so that `close()` cannot close the handle in between.
                uv_async_send(payrpc_async(asyncHandle))
            }
        }
    }

    @discardableResult
    func schedule(after delay: Duration, _ job: @escaping @Sendable () -> Void) -> ScheduledJob {
        let scheduled = ScheduledJob()
        let milliseconds = LibUVEventLoop.milliseconds(delay)
        if inLoopThread {
            startTimer(after: milliseconds, job, scheduled)
        } else {
            execute { [self] in startTimer(after: milliseconds, job, scheduled) }
        }
        return scheduled
    }

    var inLoopThread: Bool {
        loopThread.load(ordering: .acquiring) == currentThreadID()
    }

    // MARK: - Running

    /// Makes the calling thread the loop thread (before `run`).
    func bindToCurrentThread() {
        loopThread.store(currentThreadID(), ordering: .releasing)
    }

    /// Runs the loop until no handle keeps it alive.
    func run() {
        bindToCurrentThread()
        isRunning.store(true, ordering: .releasing)
        uv_run(uvLoop, UV_RUN_DEFAULT)
    }

    /// Runs one turn of the loop without blocking (close callbacks of a server that never ran).
    func runOnce() {
        uv_run(uvLoop, UV_RUN_NOWAIT)
    }

    /// Runs the jobs still queued, then closes the async and prepare handles and every timer, so
    /// that nothing of the loop's own keeps it alive. Later `execute` calls are dropped.
    func close() {
        assertInLoopThread()
        guard !isClosed else { return }
        drainJobs()
        isClosed = true
        localJobs.removeAll()
        crossThread.withLock { jobs in
            jobs.accepted = false
            jobs.queued.removeAll()
        }
        for timer in timers { timer.close() }
        uv_close(payrpc_handle(asyncHandle), nil)
        uv_close(payrpc_handle(prepareHandle), nil)
    }

    /// Checks (debug builds) that loop state is touched on the loop thread.
    @inline(__always)
    func assertInLoopThread(_ what: StaticString = #function, file: StaticString = #fileID, line: UInt = #line) {
        assert(inLoopThread, "\(what) called off the loop thread", file: file, line: line)
    }

    // MARK: - Output coalescing

    /// Remembers a connection whose output is to be flushed at the end of the current callback.
    @inline(__always)
    func needsFlush(_ connection: StreamConnection) {
        pendingFlush.append(connection)
    }

    /// Flushes the output written during the current callback, one write per connection.
    func flushPendingOutput() {
        guard !pendingFlush.isEmpty else { return }
        var index = 0
        while index < pendingFlush.count {
            pendingFlush[index].flushOutput()
            index += 1
        }
        // Emptied one by one, keeping the capacity: `removeAll(keepingCapacity:)` destroys the
        // elements through the generic `swift_arrayDestroy`, which cost 4 % of a one-request
        // round trip, more than the rest of flushing.
        while pendingFlush.popLast() != nil {}
    }

    // MARK: - Timers

    func register(_ timer: UVTimer) {
        timer.registryIndex = timers.count
        timers.append(timer)
    }

    /// Removes `timer` in constant time: the last timer takes its place.
    func unregister(_ timer: UVTimer) {
        let index = timer.registryIndex
        guard index >= 0, index < timers.count, timers[index] === timer else { return }
        let last = timers.removeLast()
        if index < timers.count {
            timers[index] = last
            last.registryIndex = index
        }
        timer.registryIndex = -1
    }

    /// How many timers are open (tests).
    var openTimerCount: Int { timers.count }

    private func startTimer(after milliseconds: UInt64, _ job: @escaping @Sendable () -> Void, _ scheduled: ScheduledJob) {
        guard !scheduled.isCancelled, !isClosed else { return }
        let timer = UVTimer(loop: self) { timer in
            timer.close()
            if !scheduled.isCancelled { job() }
        }
        timer.start(after: milliseconds)
        let bound = LoopBound(timer, loop: self)
        scheduled.setCancelAction { [self] in
            if inLoopThread {
                bound.unwrapped.close()
            } else {
                execute { bound.unwrapped.close() }
            }
        }
    }

    /// A delay in whole milliseconds, rounded up (libuv's timer resolution).
    static func milliseconds(_ delay: Duration) -> UInt64 {
        let (seconds, attoseconds) = delay.components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 0 }
        let millisecondsFromFraction = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return UInt64(seconds) * 1000 + UInt64(millisecondsFromFraction)
    }

    // MARK: - Callbacks

    fileprivate func drainJobs() {
        crossThread.withLock { swap(&$0.queued, &draining) }
        for job in draining { job() }
        draining.removeAll(keepingCapacity: true)
        runLocalJobs()
        flushPendingOutput()
    }

    /// Runs the jobs queued on the loop thread, and those they queue, a bounded number of rounds
    /// so that a job that keeps queueing itself cannot starve I/O.
    fileprivate func runLocalJobs() {
        var rounds = 0
        while !localJobs.isEmpty {
            if rounds == 16 {
                // More next turn; wake the loop so that it does not block meanwhile.
                crossThread.withLock { if $0.accepted { uv_async_send(payrpc_async(asyncHandle)) } }
                return
            }
            rounds += 1
            swap(&localJobs, &runningLocalJobs)
            for job in runningLocalJobs { job() }
            runningLocalJobs.removeAll(keepingCapacity: true)
        }
    }
}

/// The loop object that owns `handle`'s loop.
@inline(__always)
func eventLoop(of handle: UnsafeRawPointer) -> LibUVEventLoop {
    Unmanaged<LibUVEventLoop>.fromOpaque(payrpc_loop_data(payrpc_handle_loop(handle))).takeUnretainedValue()
}

private func asyncCallback(_ handle: UnsafeMutablePointer<uv_async_t>?) {
    guard let handle else { return }
    Unmanaged<LibUVEventLoop>.fromOpaque(payrpc_handle_data(handle)).takeUnretainedValue().drainJobs()
}

private func prepareCallback(_ handle: UnsafeMutablePointer<uv_prepare_t>?) {
    guard let handle else { return }
    let loop = Unmanaged<LibUVEventLoop>.fromOpaque(payrpc_handle_data(handle)).takeUnretainedValue()
    loop.runLocalJobs()
    loop.flushPendingOutput()
}

/// The calling thread's id, as a number.
@inline(__always)
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
