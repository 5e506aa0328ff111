import PayRPCCore
import Logging
import PayRPCJSON
import PayRPCSchema

/// Tool calls that are not answered at once: tasks (with their deadlines), ordered calls waiting
/// their turn, and waits for a push. `notifications/cancelled` stops any of them and nothing is
/// sent for it (MCP forbids a reply); a call with `_meta.progressToken` gets
/// `notifications/progress` while it waits.
extension MCPSession {
    /// How often a waiting call with a progress token reports.
    static let progressInterval: Duration = .seconds(1)

    // MARK: Tracking

    /// Tracks a call until it is answered or cancelled; starts its progress reports.
    @discardableResult
    func track(_ request: MCPToolRequest, kind: MCPPendingCall.Kind, totalMs: Int? = nil) -> UInt64 {
        let token = calls.add(id: request.id) { _ in
            MCPPendingCall(request: request, kind: kind, started: .now, totalMs: totalMs)
        }
        if request.progressToken != nil { reportProgress(token: token) }
        updateReading()
        return token
    }

    /// Stops tracking a call that is answered elsewhere (an ordered inline call whose turn came).
    func forget(token: UInt64) {
        calls.remove(token)?.record.stop()
    }

    // MARK: Tasks

    /// Starts `call` as a task on the connection's loop, with its deadline's timer.
    func startTask(_ call: Call, ordered: Bool, request: MCPToolRequest, token existing: UInt64?) {
        let timeout = call.timeout
        let token = existing ?? track(request, kind: .running, totalMs: timeout.map(Self.milliseconds))
        let loop = connection.loop
        let session = LoopBound(self, loop: loop)
        calls[token]?.kind = .running
        calls[token]?.totalMs = timeout.map(Self.milliseconds)
        calls[token]?.task = Task(executorPreference: taskExecutor) {
            let outcome = await call.answer()
            if loop.inLoopThread {
                session.unwrapped.complete(token: token, outcome: MCPToolOutcome(outcome))
            } else {
                loop.execute { session.unwrapped.complete(token: token, outcome: MCPToolOutcome(outcome)) }
            }
        }
        if let timeout {
            calls[token]?.timer = loop.schedule(after: timeout) { session.unwrapped.expire(token: token) }
        }
        if ordered { calls.runsOrdered(token) }
    }

    /// Answers `outcome` once the sandbox state the call changed is saved (a failure to save is
    /// answered instead), in a task tracked like any other.
    func answerAfterSaving(_ outcome: MCPToolOutcome, request: MCPToolRequest) {
        let token = track(request, kind: .running)
        let loop = connection.loop
        let session = LoopBound(self, loop: loop)
        let sandbox = engine.sandbox, engine = self.engine, logger = self.logger, method = request.method
        calls[token]?.task = Task(executorPreference: taskExecutor) {
            var answer = outcome
            do {
                try await sandbox.saveChanges()
            } catch {
                answer = MCPToolOutcome(engine.wireError(error, method: method, logger: logger))
            }
            let final = answer
            loop.execute { session.unwrapped.complete(token: token, outcome: final) }
        }
    }

    /// Answers a call, unless it was cancelled meanwhile; lets the next ordered call start.
    func complete(token: UInt64, outcome: MCPToolOutcome) {
        guard let (call, releasedOrder) = calls.remove(token) else { return }
        call.stop()
        writeToolResult(call.request, outcome)
        settle(releasedOrder: releasedOrder)
    }

    /// The call's deadline passed: a tool error (Deadline exceeded), and its task is cancelled.
    func expire(token: UInt64) {
        guard let call = calls[token] else { return }
        call.task?.cancel()
        complete(token: token, outcome: MCPToolOutcome(Call.deadlineExceeded(method: call.request.method)))
    }

    /// `notifications/cancelled`: stops the call; nothing is sent for it.
    func cancel(idKey: [UInt8]) {
        guard let token = calls.token(idKey: idKey), let (call, releasedOrder) = calls.remove(token) else { return }
        call.stop()
        logger.debug("MCP call cancelled", metadata: ["rpc.method": .string(call.request.method)])
        settle(releasedOrder: releasedOrder)
    }

    /// After a call leaves: the next ordered calls run, the output goes out, reading resumes.
    private func settle(releasedOrder: Bool) {
        if releasedOrder { runWaitingOrderedCalls() }
        flush()
        updateReading()
        finishIfDone()
    }

    // MARK: Ordered calls

    /// An earlier ordered call of this connection is still running or waiting: this one waits
    /// its turn.
    func waitTurn(_ entry: MethodEntry, _ prepared: PreparedCall, context: RequestContext, request: MCPToolRequest) {
        let token = track(request, kind: .waitingTurn)
        calls.waitTurn(token: token) { [unowned self] in
            run(entry, prepared, context: context, request: request, token: token)
        }
    }

    /// Starts the waiting ordered calls, in arrival order, until one of them runs as a task.
    func runWaitingOrderedCalls() {
        while !life.finished, let start = calls.nextTurn() { start() }
    }

    // MARK: Waiting for pushes

    /// `session_takeNotifications`: the queued pushes now, or the first push within `waitMs`.
    func takeNotifications(_ arguments: JSONElement, request: MCPToolRequest) {
        let violations = server.notificationsInput.validate(arguments)
        guard violations.isEmpty else {
            writeToolResult(request, MCPToolOutcome(.invalidParams(violations)))
            return
        }
        let waitMs = Int(arguments.member("waitMs")?.int64 ?? 0)
        guard pushes.isEmpty, waitMs > 0, !life.inputHasEnded else {
            writeToolResult(request, takePushes())
            return
        }
        let token = track(request, kind: .waitingForPush, totalMs: waitMs)
        let session = LoopBound(self, loop: connection.loop)
        calls[token]?.timer = connection.loop.schedule(after: .milliseconds(waitMs)) {
            session.unwrapped.answerWait(token: token)
        }
    }

    /// Answers a waiting `session_takeNotifications` with what is queued (perhaps nothing).
    func answerWait(token: UInt64) {
        guard calls[token]?.kind == .waitingForPush else { return }
        complete(token: token, outcome: takePushes())
    }

    /// The oldest waiting `session_takeNotifications`, if any.
    var firstWaitForPush: UInt64? {
        calls.tokens { $0.kind == .waitingForPush }.first
    }

    /// At the end of input nothing more will be asked for: every wait answers now.
    func answerWaitsNow() {
        while let token = firstWaitForPush { answerWait(token: token) }
    }

    private func takePushes() -> MCPToolOutcome {
        var writer = JSONWriter(capacity: 256)
        pushes.take(into: &writer)
        return .result(writer.bytes[...])
    }

    // MARK: Progress

    /// Sends `notifications/progress` for a waiting call (the milliseconds it has waited, of its
    /// deadline or wait when known) and schedules the next report.
    func reportProgress(token: UInt64) {
        guard let call = calls[token], let progressToken = call.request.progressToken else { return }
        let elapsed = Self.milliseconds(ContinuousClock.now - call.started)
        notify("notifications/progress") { writer in
            writer.beginObject()
            writer.key("progressToken")
            writer.raw(progressToken)
            writer.key("progress")
            writer.int(elapsed)
            if let total = call.totalMs {
                writer.key("total")
                writer.int(total)
            }
            writer.key("message")
            writer.string("\(call.request.method): waiting")
            writer.endObject()
        }
        let session = LoopBound(self, loop: connection.loop)
        calls[token]?.progressTimer = connection.loop.schedule(after: Self.progressInterval) {
            let session = session.unwrapped
            session.reportProgress(token: token)
            session.flush()
        }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) * 1000 + Int(duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
