import PayRPCSync

/// The tasks that deliver a service's outbox (a journal entry, a URLC notification): at most one
/// per key at a time, so two triggers of the same delivery (a call and the resend at start-up)
/// join one task instead of posting twice.
///
/// The runner owns its tasks: each is tracked until it ends, and a caller that must wait for one
/// (a `sync` method, a test) awaits the task it is given. Tasks run off the event loop. The
/// service that owns the runner ends its tasks with ``stop()`` when it stops.
public final class DeliveryRunner: Sendable {
    private struct State {
        var running: [String: Task<Void, Never>] = [:]
        var next: UInt64 = 0
        /// Set by ``stop()``: no task starts after it.
        var stopped = false
    }

    private let state = Lock(State())

    public init() {}

    /// Starts `work` for `key`, or joins the one running for it, and returns its task.
    @discardableResult
    public func run(_ key: String, _ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        state.withLock { state in
            if let task = state.running[key] { return task }
            if state.stopped { return Task {} }
            let task = Task { [self] in
                await work()
                self.state.withLock { _ = $0.running.removeValue(forKey: key) }
            }
            state.running[key] = task
            return task
        }
    }

    /// Runs `work` for `key` once the one running for it (if any) has ended, and waits for it: a
    /// try that starts after this call (a `sync` must not be answered by a delivery that was
    /// ending when it came). Joins a run that someone else started meanwhile.
    public func runAfterCurrent(_ key: String, _ work: @escaping @Sendable () async -> Void) async {
        if let current = state.withLock({ $0.running[key] }) { await current.value }
        await run(key, work).value
    }

    /// Starts `work` under a key of its own (work that may run beside another of its kind, such as
    /// a sweep after each move of a sandbox clock) and returns its task.
    @discardableResult
    public func start(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        let key = state.withLock { state -> String in
            state.next += 1
            return "\u{0}unkeyed-\(state.next)"
        }
        return run(key, work)
    }

    /// Cancels every task (a delivery ends at its next wait, leaving its item as recorded) and
    /// waits until each has ended; no task starts after this.
    public func stop() async {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            state.stopped = true
            return Array(state.running.values)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// How many tasks are running.
    public var runningCount: Int { state.withLock { $0.running.count } }
}
