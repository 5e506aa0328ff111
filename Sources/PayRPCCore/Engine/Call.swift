import Logging
import PayRPCJSON
import PayRPCSchema

/// One call that runs as a task, from its start to its answer: its deadline, its idempotency
/// key's claim and record, the handler's run and the answer (the result, checked under
/// `--validate-results`, or the error).
///
/// Made on the loop thread by ``RPCSession``; ``answer()`` runs in the call's task.
package struct Call: Sendable {
    package let method: String
    /// Whether the method changes the profile's sandbox controls (``MethodDescriptor/changesSandboxControls``).
    let changesControls: Bool
    /// Whether a call of a seeded profile waits for the profile's sandbox lock: all but the
    /// answers another call waits for (``MethodDescriptor/answersWaitingCall``: a waiting
    /// Masterpass payment holds the lock).
    let drawsUnderLock: Bool
    let context: RequestContext
    let body: @Sendable (RequestContext) async throws -> [UInt8]
    /// Set when the call mutates and carries an idempotency key the engine keeps answers for.
    let idempotency: IdempotentCall?
    let resultValidator: CompiledSchema?
    let engine: RPCEngine
    /// Told when the idempotency key replays a stored answer (the call journal records it).
    package let replayNote: ReplayNote?

    /// - Parameters:
    ///   - entry: the method called.
    ///   - prepared: its decoded params bound to its handler.
    ///   - context: the call's context; its logger is the session's.
    ///   - engine: for the idempotency store, the timeouts and the mapping of errors.
    ///   - replayNote: told when an idempotency key replays a stored answer (nil: nobody asks).
    package init(
        entry: MethodEntry, prepared: PreparedCall, context: RequestContext, engine: RPCEngine,
        replayNote: ReplayNote? = nil
    ) {
        self.replayNote = replayNote
        self.method = entry.descriptor.name
        self.changesControls = entry.descriptor.changesSandboxControls
        self.drawsUnderLock = !entry.descriptor.answersWaitingCall
        self.context = context
        self.body = prepared.run
        if entry.descriptor.mutates, let key = context.meta.idempotencyKey, let store = engine.idempotency {
            idempotency = IdempotentCall(key: key, store: store, canonicalParams: prepared.canonicalParams())
        } else {
            idempotency = nil
        }
        self.resultValidator = entry.resultValidator
        self.engine = engine
    }

    private var logger: Logger { context.logger }

    // MARK: Deadline

    /// How long the call may run before it is answered with Deadline exceeded: the call's
    /// `_meta.timeoutMs`, else the method's configured timeout, else the default (nil: none).
    package var timeout: Duration? {
        context.meta.timeoutMs.map({ Duration.milliseconds($0) })
            ?? engine.configuration.methodTimeouts[method] ?? engine.configuration.defaultTimeout
    }

    /// The answer of a call whose deadline passed first.
    package static func deadlineExceeded(method: String) -> Outcome {
        errorOutcome(RPCError(.deadlineExceeded, "Deadline exceeded", data: ["method": .string(method)]))
    }

    // MARK: Cancellation

    /// The answer of a call cancelled by `$/cancelRequest`.
    static var cancelled: Outcome {
        errorOutcome(RPCError(.cancelled, "Request cancelled"))
    }

    // MARK: Idempotency

    /// Runs the handler (through the idempotency store when the call has a key) and encodes the
    /// outcome. In the call's task.
    ///
    /// On a store other gateways share, every call runs here (none inline): the profile's sandbox
    /// documents are read first, and a call that may change them holds the profile's lock across
    /// gateways until what it changed is saved
    /// (``SandboxAccess/enter(profile:method:changesControls:drawsUnderLock:)``); an armed
    /// failure is taken under that lock, so exactly once whichever gateway serves the call.
    package func answer() async -> Outcome {
        guard engine.sandboxIsShared else { return await answerOwned() }
        let sandbox = context.sandbox, profile = context.profile
        let lease: (any SandboxLease)?
        do {
            lease = try await sandbox.enter(
                profile: profile, method: method, changesControls: changesControls, drawsUnderLock: drawsUnderLock)
        } catch {
            return Self.errorOutcome(engine.wireError(error, method: method, logger: logger))
        }
        guard let lease else { return await answerOwned() }
        let outcome = await SandboxLock.$profile.withValue(profile) { () async -> Outcome in
            guard let failure = engine.takeArmedFailureUnderLock(for: method, profile: profile) else {
                return await answerOwned()
            }
            do {
                // Taken in the store before the error is sent: no gateway fires it again.
                try await sandbox.saveChanges()
                return Self.errorOutcome(failure.error)
            } catch {
                return Self.errorOutcome(engine.wireError(error, method: method, logger: logger))
            }
        }
        await sandbox.exit(lease, profile: profile)
        return outcome
    }

    /// ``answer()`` once the sandbox state is this gateway's to read.
    private func answerOwned() async -> Outcome {
        guard let idempotency else { return await execute().outcome }
        let key = idempotency.key, store = idempotency.store
        let digest = String(decoding: idempotency.canonicalParams, as: UTF8.self)
        do {
            switch try await store.claim(
                profile: context.profile, key: key, method: method, paramsDigest: digest,
                now: context.now)
            {
            case .replay(let outcome):
                replayNote?.noteReplay()
                return Array(outcome.utf8)
            case .conflict:
                return Self.errorOutcome(
                    RPCError(
                        .idempotencyConflict, "Idempotency key reused",
                        data: ["detail": .string("the key was used before with other params or another method")]))
            case .inProgress:
                return Self.errorOutcome(
                    RPCError(
                        .idempotencyConflict, "Idempotency key in use",
                        data: ["detail": .string("a call with this key is still running")]))
            case .claimed:
                break
            }
        } catch {
            return Self.errorOutcome(engine.wireError(error, method: method, logger: logger))
        }
        let (outcome, isFinal) = await execute()
        do {
            // Kept only when it is the call's final answer: a cancelled call, or an error that
            // says it is not final (a full store, an outside API that may or may not have acted),
            // leaves the key free, so its repeat runs anew instead of replaying the failure for
            // the key's whole retention (and the claim is not left in progress).
            if Task.isCancelled || !isFinal {
                try await store.abandon(profile: context.profile, key: key)
            } else {
                try await store.complete(
                    profile: context.profile, key: key,
                    outcome: String(decoding: outcome, as: UTF8.self))
            }
        } catch {
            logger.error("idempotency record failed", metadata: ["rpc.method": .string(method), "error": .string("\(error)")])
        }
        return outcome
    }

    // MARK: Answer

    /// Runs the handler and encodes its result, or the error it threw; then saves what the call
    /// changed in the sandbox's state (a draw of a seeded stream, a moved clock) and was not saved
    /// with a store transaction of its own, so the answer never runs ahead of the store. Also
    /// says whether the outcome is final for an idempotency key (``RPCError/isFinal``).
    private func execute() async -> (outcome: Outcome, isFinal: Bool) {
        let activity = engine.sandboxActivity, changesBefore = activity.changes
        let answer = await run()
        guard activity.changes != changesBefore, activity.hasUnsavedChanges else { return answer }
        do {
            try await context.sandbox.saveChanges()
        } catch {
            let wire = engine.wireError(error, method: method, logger: logger)
            return (Self.errorOutcome(wire), wire.isFinal)
        }
        return answer
    }

    /// Runs the handler and encodes its result, or the error it threw (with whether it is final).
    private func run() async -> (outcome: Outcome, isFinal: Bool) {
        do {
            let result = try await body(context)
            if let problem = Self.resultProblem(resultValidator, result, method: method, logger: logger) {
                return (Self.errorOutcome(problem), problem.isFinal)
            }
            var writer = JSONWriter(capacity: result.count + 10)
            writer.raw("\"result\":")
            writer.raw(result)
            return (writer.bytes, true)
        } catch {
            let wire = engine.wireError(error, method: method, logger: logger)
            return (Self.errorOutcome(wire), wire.isFinal)
        }
    }

    static func errorOutcome(_ error: RPCError) -> Outcome {
        error.responseMember
    }

    /// Under `--validate-results`, the error to send instead of a result that breaks its schema
    /// (logged with every violation); nil when the result is fine or results are not validated.
    package static func resultProblem<Bytes: Collection<UInt8>>(
        _ validator: CompiledSchema?, _ bytes: Bytes,
        method: String, logger: Logger
    ) -> RPCError? {
        guard let validator else { return nil }
        let violations: [SchemaViolation]
        if let tape = try? JSONTape(copying: bytes) {
            violations = tape.withRoot { validator.validate($0) }
        } else {
            violations = [SchemaViolation(pointer: "", keyword: "json", message: "the result is not JSON")]
        }
        guard !violations.isEmpty else { return nil }
        logger.error(
            "result breaks its schema",
            metadata: [
                "rpc.method": .string(method),
                "violations": .string(violations.map(\.description).joined(separator: "; ")),
            ])
        return .invalidResult(violations)
    }
}

/// A call made with an idempotency key, the store that remembers its answer, and the params in
/// the canonical form whose digest the key is checked against.
struct IdempotentCall: Sendable {
    let key: String
    let store: any IdempotencyStore
    let canonicalParams: [UInt8]
}

/// A call running as a task, as its session on the loop thread tracks it until it is answered.
struct InFlightCall: TrackedCall {
    /// The request's id (nil for a notification).
    let id: [UInt8]?
    package let method: String
    let responder: Responder
    let task: Task<Void, Never>?
    var timer: ScheduledJob?
    /// `$/cancelRequest` named it: it is answered with the cancelled error, whatever the task returns.
    var cancelled = false
    /// What the call journal records when it is answered (nil: no journal, or not journalled).
    var journalled: JournalledTask?

    /// Cancels the task and the deadline's timer.
    func stop() {
        task?.cancel()
        timer?.cancel()
    }
}
