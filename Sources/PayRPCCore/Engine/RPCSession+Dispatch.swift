import PayRPCJSON
import Logging

/// Dispatch: a checked call runs inline on the loop thread, answering straight into the output,
/// or as a task (a ``Call``) tracked until it completes, expires or is cancelled; ordered calls
/// wait their turn.
extension RPCSession {
    // MARK: Dispatch

    /// Runs a decoded, validated call: inline on the loop thread, or as a task (a task handler,
    /// an inline one whose answer goes through the idempotency store, or any call on a store
    /// other gateways share, whose sandbox state is read first).
    func dispatch(
        _ entry: MethodEntry, _ prepared: PreparedCall, context: RequestContext,
        id: UnsafeRawBufferPointer?, responder: Responder
    ) {
        let idempotencyKey = entry.descriptor.mutates ? context.meta.idempotencyKey : nil
        if let runHandler = prepared.runInline, idempotencyKey == nil || engine.idempotency == nil,
            engine.answersInline(entry.descriptor)
        {
            runInline(entry, context: context, id: id, responder: responder) { writer in
                try runHandler(context, &writer)
            }
            return
        }
        let replayNote = callLog != nil && idempotencyKey != nil && engine.idempotency != nil ? ReplayNote() : nil
        let call = Call(entry: entry, prepared: prepared, context: context, engine: engine, replayNote: replayNote)
        startTask(call, ordered: entry.descriptor.ordered, id: id, responder: responder)
    }

    // MARK: Ordered calls

    /// An earlier call of this connection's ordered sequence is still running: this one waits
    /// its turn (its id copied, since the line's bytes do not outlive this call).
    func waitTurn(
        _ entry: MethodEntry, _ prepared: PreparedCall, context: RequestContext,
        id: UnsafeRawBufferPointer?, responder: Responder
    ) {
        let idCopy = id.map { Array($0) }
        let journalled = callLog == nil ? nil : takeJournalled()
        calls.waitTurn(token: nil) { [unowned self] in
            self.recordingTurn(journalled, responder: responder) { session in
                if let idCopy {
                    idCopy.withUnsafeBytes { session.dispatch(entry, prepared, context: context, id: $0, responder: responder) }
                } else {
                    session.dispatch(entry, prepared, context: context, id: nil, responder: responder)
                }
            }
        }
        updateReading()
    }

    /// Starts the waiting ordered calls, in arrival order, until one of them runs as a task.
    func runWaitingOrderedCalls() {
        while !life.finished, let start = calls.nextTurn() { start() }
    }

    // MARK: Inline

    /// Runs an inline handler (`produce` writes the result) and writes its answer in place
    /// (nothing for a notification). When the call changed the sandbox's state (a seed, an armed
    /// failure, a draw of a seeded stream), the answer waits until that is saved.
    ///
    /// Only the usual answer (a request answered straight into the output) is finished here: what
    /// a notification, a batch member or a failure needs is done by functions of their own that
    /// are never inlined, and the method's name is read only there. Inlined, their task and error
    /// handling gave this function a frame of eight dynamically sized slots set up on every call,
    /// and the name cost a retain and a release (scripts/callgrind.sh). `produce` is called here
    /// only: handing it on to another function made the compiler retain what it captures.
    func runInline(
        _ entry: MethodEntry, context: RequestContext, id: UnsafeRawBufferPointer?, responder: Responder,
        _ produce: (inout JSONWriter) throws -> Void
    ) {
        let changesBefore = engine.sandboxActivity.changes
        if let id, case .direct = responder {
            let mark = output.writer.bytes.count
            SessionOutput.writeResponsePrefix(id: id, into: &output.writer, then: ",\"result\":")
            let resultStart = output.writer.bytes.count
            do {
                try produce(&output.writer)
            } catch {
                output.writer.bytes.removeSubrange(mark...)
                failed(entry, error, id: id, responder: responder, changesBefore: changesBefore)
                return
            }
            if entry.resultValidator != nil || engine.sandboxActivity.changes != changesBefore {
                answerWritten(entry, from: mark, resultStart: resultStart, id: id, changesBefore: changesBefore)
            } else {
                output.writer.raw("}\n")
            }
            return
        }
        // A notification's result is dropped; a batch member's is written aside and collected.
        var aside = JSONWriter(capacity: id == nil ? 0 : 128)
        var thrown: (any Error)?
        do { try produce(&aside) } catch { thrown = error }
        answerAside(
            entry, result: aside.bytes, thrown: thrown, to: AnswerAddress(id: id, responder: responder),
            changesBefore: changesBefore)
    }

    /// ``runInline(_:context:id:responder:_:)``'s answer once the result is written, when it is
    /// validated (`--validate-results`) or the call changed the sandbox's state.
    @inline(never)
    private func answerWritten(
        _ entry: MethodEntry, from mark: Int, resultStart: Int, id: UnsafeRawBufferPointer, changesBefore: UInt64
    ) {
        let method = entry.descriptor.name
        if let problem = checkResult(entry, output.writer.bytes[resultStart...]) {
            output.writer.bytes.removeSubrange(mark...)
            answer(error: problem, method: method, id: id, responder: .direct, changesBefore: changesBefore)
        } else if engine.sandboxActivity.changes != changesBefore {
            let outcome = Self.resultMember + output.writer.bytes[resultStart...]
            output.writer.bytes.removeSubrange(mark...)
            answerAfterSaving(outcome, method: method, id: id, responder: .direct)
        } else {
            output.writer.raw("}\n")
        }
    }

    /// An inline handler threw: the rest runs as a task (``FinishInTask``), or its error is the answer.
    @inline(never)
    private func failed(
        _ entry: MethodEntry, _ error: any Error, id: UnsafeRawBufferPointer, responder: Responder,
        changesBefore: UInt64
    ) {
        let method = entry.descriptor.name
        if let finish = error as? FinishInTask {
            self.finish(finish, method: method, id: id, responder: responder)
        } else {
            answer(
                error: engine.wireError(error, method: method, logger: logger), method: method, id: id, responder: responder,
                changesBefore: changesBefore)
        }
    }

    /// ``runInline(_:context:id:responder:_:)``'s answer for a notification (none, unless the
    /// rest runs as a task) or a batch member (collected), once the handler has written `result`
    /// aside or thrown.
    @inline(never)
    private func answerAside(
        _ entry: MethodEntry, result: [UInt8], thrown: (any Error)?, to address: AnswerAddress, changesBefore: UInt64
    ) {
        let id = address.id, responder = address.responder
        let method = entry.descriptor.name
        guard let id else {
            if let finish = thrown as? FinishInTask {
                self.finish(finish, method: method, id: nil, responder: responder)
                return
            }
            if let error = thrown, !(error is EarlyAnswer) {
                logger.debug("notification failed", metadata: ["rpc.method": .string(method), "error": .string("\(error)")])
            }
            if case .batch(let collector) = responder { output.collect(nil, into: collector) }
            if engine.sandboxActivity.changes != changesBefore {
                answerAfterSaving(nil, method: method, id: nil, responder: .direct)
            }
            return
        }
        guard case .batch(let collector) = responder else { return }
        if let finish = thrown as? FinishInTask {
            self.finish(finish, method: method, id: id, responder: responder)
        } else if let error = thrown {
            answer(
                error: engine.wireError(error, method: method, logger: logger), method: method, id: id, responder: responder,
                changesBefore: changesBefore)
        } else if let problem = checkResult(entry, result[...]) {
            answer(error: problem, method: method, id: id, responder: responder, changesBefore: changesBefore)
        } else if engine.sandboxActivity.changes != changesBefore {
            answerAfterSaving(Self.resultMember + result, method: method, id: id, responder: responder)
        } else {
            var response = JSONWriter(capacity: result.count + 48)
            SessionOutput.writeResponsePrefix(id: id, into: &response, then: ",\"result\":")
            response.raw(result)
            response.endObject()
            output.collect(response.bytes, into: collector)
        }
    }

    /// `"result":`, the member an outcome of success starts with.
    private static let resultMember = Array("\"result\":".utf8)

    /// Answers with `error` now, or once the sandbox's changes are saved when the call made some.
    @inline(never)
    private func answer(
        error: RPCError, method: String, id: UnsafeRawBufferPointer, responder: Responder,
        changesBefore: UInt64
    ) {
        if engine.sandboxActivity.changes != changesBefore {
            answerAfterSaving(Call.errorOutcome(error), method: method, id: id, responder: responder)
        } else {
            output.writeError(error, id: id, to: responder)
        }
    }

    /// Runs the rest of an inline call that must wait for the store (``FinishInTask``) as a task,
    /// and answers with its result or error (nothing for a notification).
    @inline(never)
    private func finish(_ finish: FinishInTask, method: String, id: UnsafeRawBufferPointer?, responder: Responder) {
        let engine = self.engine, logger = self.logger
        startWork(method: method, timeout: nil, ordered: false, to: AnswerAddress(id: id, responder: responder)) {
            do {
                return Self.resultMember + (try await finish.result())
            } catch {
                return Call.errorOutcome(engine.wireError(error, method: method, logger: logger))
            }
        }
    }

    /// Answers with `outcome` once the sandbox's unsaved changes are durable (or with the store's
    /// error when they cannot be saved): what a call that changed the sandbox's state and ran on
    /// the loop thread answers with. `outcome` nil: a notification, nothing to answer.
    @inline(never)
    func answerAfterSaving(_ outcome: Outcome?, method: String, id: UnsafeRawBufferPointer?, responder: Responder) {
        let sandbox = engine.sandbox, engine = self.engine, logger = self.logger
        startWork(method: method, timeout: nil, ordered: false, to: AnswerAddress(id: id, responder: responder)) {
            do {
                try await sandbox.saveChanges()
                return outcome ?? []
            } catch {
                return Call.errorOutcome(engine.wireError(error, method: method, logger: logger))
            }
        }
    }

    /// Validates a written result under `--validate-results`; returns the error to send instead.
    /// ``Call/resultProblem(_:_:method:logger:)`` for an inline call's result; the bytes are looked
    /// at (and sliced) only when results are validated.
    private func checkResult(_ entry: MethodEntry, _ bytes: @autoclosure () -> ArraySlice<UInt8>) -> RPCError? {
        guard entry.resultValidator != nil else { return nil }
        return Call.resultProblem(entry.resultValidator, bytes(), method: entry.descriptor.name, logger: logger)
    }

    // MARK: Tasks

    /// Starts `call` as a task on the connection's loop, with its deadline's timer, and tracks it
    /// until it is answered (``complete(token:outcome:)``).
    func startTask(_ call: Call, ordered: Bool, id rawID: UnsafeRawBufferPointer?, responder: Responder) {
        journalled.replayNote = call.replayNote
        startWork(
            method: call.method, timeout: call.timeout, ordered: ordered, to: AnswerAddress(id: rawID, responder: responder)
        ) {
            await call.answer()
        }
    }

    /// Starts `work` as a task on the connection's loop, with a deadline's timer when `timeout` is
    /// given, and tracks it until it is answered with the outcome it returns.
    func startWork(
        method: String, timeout: Duration?, ordered: Bool, to address: AnswerAddress,
        work: @escaping @Sendable () async -> Outcome
    ) {
        let journalled = callLog == nil ? nil : takeJournalled()
        let responder = address.responder
        let loop = connection.loop
        let session = LoopBound(self, loop: loop)
        let id = address.id.map { Array($0) }
        let executor = taskExecutor
        // What the call's pushes and outgoing HTTP exchanges are recorded under.
        let scope = callLog == nil ? nil : CallScope(profile: shared.profile, call: journalled.map { CallKey.id($0.key) })
        _ = calls.add(id: id, ordered: ordered) { token in
            let task = Task(executorPreference: executor) {
                let outcome = if let scope { await CallScope.$current.withValue(scope) { await work() } } else { await work() }
                if loop.inLoopThread {
                    session.unwrapped.complete(token: token, outcome: outcome)
                } else {
                    loop.execute { session.unwrapped.complete(token: token, outcome: outcome) }
                }
            }
            let timer = timeout.map { timeout in loop.schedule(after: timeout) { session.unwrapped.expire(token: token) } }
            return InFlightCall(id: id, method: method, responder: responder, task: task, timer: timer, journalled: journalled)
        }
        updateReading()
    }

    /// A task finished: write its answer, unless the request was cancelled or expired meanwhile.
    func complete(token: UInt64, outcome: Outcome) {
        guard let (call, releasesOrder) = calls.remove(token) else { return }
        call.timer?.cancel()
        let outcome = call.cancelled ? Call.cancelled : outcome
        if let id = call.id {
            id.withUnsafeBytes { output.writeOutcome(outcome, id: $0, to: call.responder) }
        } else if case .batch(let collector) = call.responder {
            output.collect(nil, into: collector)
        }
        if let journalled = call.journalled { recordTask(journalled, outcome: call.id == nil ? [] : outcome) }
        flush()
        if releasesOrder {
            runWaitingOrderedCalls()
            flush()
        }
        updateReading()
        finishIfDone()
    }

    /// The call's deadline passed: answer it with Deadline exceeded and cancel its task.
    func expire(token: UInt64) {
        guard let call = calls[token] else { return }
        call.task?.cancel()
        complete(token: token, outcome: Call.deadlineExceeded(method: call.method))
    }

    /// `$/cancelRequest`: cancels the request's task and answers it with the cancelled error as
    /// soon as the cancelling handler has returned, or when the task ends if that comes first.
    ///
    /// Not answered from inside: `$/cancelRequest` runs inline, and when it is sent as a request
    /// (with an id) its own answer is being written into the output then; writing the cancelled
    /// answer there too was an exclusivity violation (debug builds aborted, release builds wrote
    /// the cancelled answer inside the `$/cancelRequest` answer's result).
    func cancel(idKey: [UInt8]) -> Bool {
        guard let token = calls.token(idKey: idKey), var call = calls[token] else { return false }
        call.cancelled = true
        call.task?.cancel()
        calls[token] = call
        let session = LoopBound(self, loop: connection.loop)
        connection.loop.execute { session.unwrapped.complete(token: token, outcome: Call.cancelled) }
        return true
    }
}
