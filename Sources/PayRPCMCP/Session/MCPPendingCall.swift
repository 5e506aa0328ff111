import PayRPCCore
/// A tool call its session has not answered yet, as the session tracks it on the loop thread.
struct MCPPendingCall: TrackedCall {
    /// What the call waits for.
    enum Kind {
        /// Its task runs.
        case running
        /// `session_takeNotifications` waits for a push.
        case waitingForPush
        /// An ordered call waits for the running one.
        case waitingTurn
    }

    let request: MCPToolRequest
    var kind: Kind
    let started: ContinuousClock.Instant
    /// How long the call may take, in milliseconds, when known (its deadline, or the wait).
    var totalMs: Int?
    var task: Task<Void, Never>?
    /// The deadline's timer, or the end of a wait.
    var timer: ScheduledJob?
    /// The next progress notification's timer.
    var progressTimer: ScheduledJob?

    /// Cancels the task and every timer.
    func stop() {
        task?.cancel()
        timer?.cancel()
        progressTimer?.cancel()
    }
}
