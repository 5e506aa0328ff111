import Logging
import PayRPCJSON
import PayRPCSchema
import Synchronization

/// The engine's side of one connection: parses each line once, classifies it with one switch,
/// dispatches, and writes every answer back on the loop thread.
///
/// Loop-thread only. Inline handlers answer while the line is parsed, straight into the output
/// buffer; task handlers run off the loop and their answers come back through
/// ``EventLoop/execute(_:)``.
final class RPCSession: RPCConnectionHandler {
    let engine: RPCEngine
    let connection: any RPCConnection
    /// Where the calls' tasks run: the connection's loop thread (see ``LoopTaskExecutor``).
    private let taskExecutor: LoopTaskExecutor
    let shared: ConnectionSession
    let logger: Logger
    /// Cleared when the connection closes, which breaks the cycle through ``shared``.
    private let reference: LoopBound<SessionReference>
    private let tape = JSONTape()
    private var output = JSONWriter(capacity: 4096)
    private var inFlight: [UInt64: InFlight] = [:]
    private var tokensByID: [[UInt8]: UInt64] = [:]
    private var nextToken: UInt64 = 0
    private var inputHasEnded = false
    private var finished = false
    private var readingPaused = false
    private var authenticated: Bool
    /// The ordered call (``RPCMethod/ordered``) running as a task, if any.
    private var orderedRunning: UInt64?
    /// Ordered calls that arrived while another ran, in arrival order.
    private var orderedWaiting: [() -> Void] = []
    /// The context shared by calls without `_meta`, and the profile generation it was made for.
    private var cachedPlainContext: RequestContext?
    private var cachedPlainContextGeneration: UInt64 = 0

    /// A request whose answer has not been written yet.
    struct InFlight {
        let id: [UInt8]?
        let method: String
        let responder: Responder
        let task: Task<Void, Never>?
        var timer: ScheduledJob?
    }

    /// Where an answer goes: straight to the connection, or into a batch's array.
    enum Responder {
        case direct
        case batch(BatchCollector)
    }

    init(engine: RPCEngine, connection: any RPCConnection) {
        self.engine = engine
        self.connection = connection
        self.taskExecutor = LoopTaskExecutor(loop: connection.loop)
        let id = engine.nextConnectionID()
        var sessionLogger = engine.logger
        sessionLogger[metadataKey: "connection.id"] = .stringConvertible(id)
        self.logger = sessionLogger
        let logger = sessionLogger
        let loop = connection.loop
        let router = engine.router
        let reference = LoopBound(SessionReference(), loop: loop)
        self.reference = reference
        self.shared = ConnectionSession(
            id: id, transport: connection.transport, loop: loop,
            deliver: { bytes in
                loop.execute { reference.unwrapped.session?.writeNotification(bytes) }
            },
            notificationCheck: { name, payload in
                guard let violations = router.checkNotification(name, payload: payload) else { return nil }
                logger.error("notification breaks its schema", metadata: [
                    "rpc.method": .string(name), "violations": .string(violations.map(\.description).joined(separator: "; ")),
                ])
                return RPCError(.invalidResult, "Notification breaks its schema")
            })
        self.authenticated = engine.configuration.authToken == nil || connection.transport == .stdio
        reference.unwrapped.session = self
        // Unowned, and dropped when the connection closes: the session is alive until then.
        shared.cancelHandler = { [unowned self] id in cancel(idKey: id) }
        shared.authenticate = { [unowned self] in authenticated = true }
        logger.debug("connection opened", metadata: ["peer": .string(connection.peer), "transport": .string(connection.transport.rawValue)])
    }

    var hasWorkInFlight: Bool { !inFlight.isEmpty || !orderedWaiting.isEmpty }

    // MARK: Input

    func received(line: UnsafeRawBufferPointer) {
        guard !finished else { return }
        do {
            try tape.parse(line)
        } catch {
            let rpcError = error.reason == .invalidUTF8 ? RPCError(.parseError, "Parse error: invalid UTF-8", data: ["detail": .string(error.description)])
                                                        : RPCError.parse(error.description)
            writeError(rpcError, id: nil, to: .direct)
            return
        }
        let root = tape.root
        switch root.kind {
        case .array:
            handleBatch(root)
        case .object:
            handle(root, responder: .direct)
        case .null, .bool, .number, .string:
            writeError(.invalidRequest("a request must be an object or an array of requests"), id: nil, to: .direct)
        }
        // Written when the connection has delivered every line of the read (receivedAvailableLines):
        // one write for all of them, instead of a copy into the connection's buffer per line. Large
        // answers go at once, so that the connection's high-water mark (it stops delivering lines
        // while its output is full) sees them, and a client that does not read cannot make the
        // engine buffer a whole read's worth of answers.
        if output.bytes.count >= Self.flushThreshold { flush() }
    }

    /// Answers gathered beyond this many bytes are handed to the connection before the read ends.
    static let flushThreshold = 16 << 10

    func receivedAvailableLines() {
        flush()
    }

    func receivedOversizedLine(limit: Int) {
        writeError(RPCError(.invalidRequest, "Invalid Request: line too long",
                            data: ["detail": .string("a line may have at most \(limit) bytes; it was discarded"),
                                   "limit": .int(limit)]),
                   id: nil, to: .direct)
        flush()
    }

    func inputEnded() {
        inputHasEnded = true
        finishIfDone()
    }

    func connectionClosed() {
        finished = true
        for (_, request) in inFlight {
            request.task?.cancel()
            request.timer?.cancel()
        }
        inFlight.removeAll()
        tokensByID.removeAll()
        orderedWaiting.removeAll()
        shared.cancelHandler = nil
        shared.authenticate = nil
        reference.unwrapped.session = nil
        shared.markClosed()
        logger.debug("connection closed")
    }

    private func finishIfDone() {
        if inputHasEnded, inFlight.isEmpty, orderedWaiting.isEmpty, !finished {
            finished = true
            flush()
            connection.finish()
        }
    }

    // MARK: Batches

    private func handleBatch(_ batch: JSONElement) {
        guard batch.count > 0 else {
            writeError(.invalidRequest("an empty batch"), id: nil, to: .direct)
            return
        }
        guard batch.count <= engine.configuration.maxBatch else {
            writeError(RPCError(.invalidRequest, "Invalid Request: batch too large",
                                data: ["detail": .string("a batch may have at most \(engine.configuration.maxBatch) members"),
                                       "limit": .int(engine.configuration.maxBatch)]),
                       id: nil, to: .direct)
            return
        }
        let collector = BatchCollector()
        collector.pending = batch.count
        for member in batch.arrayElements {
            if member.kind == .object {
                handle(member, responder: .batch(collector))
            } else {
                writeError(.invalidRequest("a batch member must be a request object"), id: nil, to: .batch(collector))
            }
        }
    }

    // MARK: One request

    private func handle(_ request: JSONElement, responder: Responder) {
        var version: JSONElement?
        var methodName: JSONElement?
        var params: JSONElement?
        var idElement: JSONElement?
        for (name, value) in request.objectMembers {
            // Inlined comparisons: each rules a name out by its length before reading a byte.
            if name.stringEquals("jsonrpc") { version = value }
            else if name.stringEquals("method") { methodName = value }
            else if name.stringEquals("params") { params = value }
            else if name.stringEquals("id") { idElement = value }
        }
        // The id's raw bytes, valid while this line is handled; copied only by requests that outlive it.
        var id: UnsafeRawBufferPointer?
        if let idElement {
            switch idElement.kind {
            case .string, .number, .null:
                id = idElement.rawBytes
            case .bool, .array, .object:
                writeError(.invalidRequest("id must be a string, a number or null"), id: nil, to: responder)
                return
            }
        }
        guard let version, version.stringEquals("2.0") else {
            writeError(.invalidRequest("jsonrpc must be \"2.0\""), id: id, to: responder)
            return
        }
        guard let methodName, methodName.kind == .string, let nameBytes = methodName.stringContentBytes else {
            writeError(.invalidRequest("method must be a string"), id: id, to: responder)
            return
        }
        if let params, params.kind != .object, params.kind != .array {
            writeError(.invalidRequest("params must be an object or an array"), id: id, to: responder)
            return
        }
        guard let entry = engine.router.entry(named: nameBytes) ?? (methodName.string.flatMap { name in
            engine.router.table.lookup(name)
        }) else {
            reply(id, responder) { (.methodNotFound(methodName.string ?? "")) }
            return
        }
        let descriptor = entry.descriptor
        if !authenticated && !descriptor.allowedBeforeAuthentication {
            reply(id, responder) {
                RPCError(.unauthenticated, "Unauthenticated",
                                data: ["detail": .string("call rpc.hello with the server's token first")])
            }
            return
        }
        if descriptor.sandboxOnly && !engine.configuration.sandbox {
            reply(id, responder) {
                RPCError(.sandboxOnly, "Sandbox only",
                                data: ["detail": .string("\(descriptor.name) exists only in sandbox mode")])
            }
            return
        }

        // Params: positions mapped onto names, `_meta` read and set aside, then validated.
        let normalized: NormalizedParams
        var meta: RequestMeta?
        do {
            normalized = try NormalizedParams(params, method: descriptor)
            if let metaElement = normalized.meta { meta = try RequestMeta(parsing: metaElement) }
        } catch {
            reply(id, responder) { (error) }
            return
        }
        // A rewritten params' tape lives in `normalized`: kept until the call has been read.
        defer { withExtendedLifetime(normalized) {} }
        let paramsElement = normalized.element
        // Absent params of a method whose schema accepts `{}` need no check (rpc.health's hot path).
        let violations = params == nil && entry.acceptsAbsentParams ? [] : entry.paramsValidator.validate(paramsElement)
        guard violations.isEmpty else {
            reply(id, responder) { (.invalidParams(violations)) }
            return
        }
        if let trace = meta?.traceparent {
            logger.info("call", metadata: ["rpc.method": .string(descriptor.name), "traceparent": .string(trace)])
        }
        let context = meta.map(makeContext) ?? plainContext()
        // `sandbox.failNext`: an armed failure answers in place of the handler (one atomic read when none is).
        if let failure = engine.sandbox.takeFailure(profile: context.profile, method: descriptor.name) {
            reply(id, responder) { failure.error }
            return
        }
        let waitsItsTurn = descriptor.ordered && (orderedRunning != nil || !orderedWaiting.isEmpty)
        let idempotent = descriptor.mutates && context.meta.idempotencyKey != nil && engine.idempotency != nil
        if case .inline(_, let fromElement) = entry.body, !waitsItsTurn, !idempotent {
            // The usual call: decoded and answered in one go, straight into the response.
            runInline(entry, context: context, id: id, responder: responder) { writer in
                try fromElement(paramsElement, context, &writer)
            }
            return
        }
        let decoded: any Sendable
        do {
            decoded = try entry.decode(paramsElement)
        } catch {
            reply(id, responder) { (error) }
            return
        }
        if waitsItsTurn {
            // An earlier call of this connection's ordered sequence is still running: this one waits its turn.
            let idCopy = id.map { Array($0) }
            orderedWaiting.append { [unowned self] in
                if let idCopy {
                    idCopy.withUnsafeBytes { self.dispatch(entry, params: decoded, context: context, id: $0, responder: responder) }
                } else {
                    self.dispatch(entry, params: decoded, context: context, id: nil, responder: responder)
                }
            }
            updateReading()
            return
        }
        dispatch(entry, params: decoded, context: context, id: id, responder: responder)
    }

    /// The context of a call that carries `_meta`.
    private func makeContext(_ meta: RequestMeta) -> RequestContext {
        RequestContext(connection: shared, profile: shared.profile, meta: meta, logger: logger,
                       isSandbox: engine.configuration.sandbox, sandbox: engine.sandbox)
    }

    /// The context of a call without `_meta`: one for every such call of the connection, made
    /// again when the connection's profile changes.
    private func plainContext() -> RequestContext {
        let generation = shared.profileGeneration.load(ordering: .acquiring)
        if let context = cachedPlainContext, cachedPlainContextGeneration == generation { return context }
        let context = makeContext(RequestMeta())
        cachedPlainContext = context
        cachedPlainContextGeneration = generation
        return context
    }

    /// Runs a decoded, validated call: inline on the loop thread, or as a task.
    private func dispatch(_ entry: MethodEntry, params decoded: any Sendable, context: RequestContext,
                          id: UnsafeRawBufferPointer?, responder: Responder) {
        let idempotencyKey = entry.descriptor.mutates ? context.meta.idempotencyKey : nil
        switch entry.body {
        case .inline(let body, _) where idempotencyKey == nil || engine.idempotency == nil:
            runInline(entry, context: context, id: id, responder: responder) { writer in
                try body(decoded, context, &writer)
            }
        case .inline(let body, _):
            startTask(entry, params: decoded, context: context, id: id, responder: responder) { params, context in
                var writer = JSONWriter(capacity: 128)
                try body(params, context, &writer)
                return writer.bytes
            }
        case .task(let body):
            startTask(entry, params: decoded, context: context, id: id, responder: responder, body: body)
        }
    }

    /// Starts the waiting ordered calls, in arrival order, until one of them runs as a task.
    private func runWaitingOrderedCalls() {
        while orderedRunning == nil, !orderedWaiting.isEmpty, !finished {
            let start = orderedWaiting.removeFirst()
            start()
        }
    }

    /// Runs an inline handler (`produce` writes the result) and writes its answer in place
    /// (nothing for a notification).
    private func runInline(_ entry: MethodEntry, context: RequestContext, id: UnsafeRawBufferPointer?, responder: Responder,
                           _ produce: (inout JSONWriter) throws -> Void) {
        guard let id else {
            var scratch = JSONWriter(capacity: 0)
            do { try produce(&scratch) } catch {
                logger.debug("notification failed", metadata: ["rpc.method": .string(entry.descriptor.name), "error": .string("\(error)")])
            }
            if case .batch(let collector) = responder { collect(nil, into: collector) }
            return
        }
        switch responder {
        case .direct:
            let mark = output.bytes.count
            writeResponsePrefix(id: id, into: &output, then: ",\"result\":")
            let resultStart = output.bytes.count
            do {
                try produce(&output)
                if let problem = checkResult(entry, output.bytes[resultStart...]) {
                    output.bytes.removeSubrange(mark...)
                    writeError(problem, id: id, to: .direct)
                    return
                }
                output.raw("}\n")
            } catch {
                output.bytes.removeSubrange(mark...)
                writeError(engine.wireError(error, method: entry.descriptor.name, logger: logger), id: id, to: .direct)
            }
        case .batch(let collector):
            var writer = JSONWriter(capacity: 128)
            do {
                try produce(&writer)
                if let problem = checkResult(entry, writer.bytes[...]) {
                    writeError(problem, id: id, to: responder)
                    return
                }
                var response = JSONWriter(capacity: writer.bytes.count + 48)
                writeResponsePrefix(id: id, into: &response, then: ",\"result\":")
                response.raw(writer.bytes)
                response.endObject()
                collect(response.bytes, into: collector)
            } catch {
                writeError(engine.wireError(error, method: entry.descriptor.name, logger: logger), id: id, to: responder)
            }
        }
    }

    /// Validates a written result under `--validate-results`; returns the error to send instead.
    /// ``resultProblem(_:_:method:logger:)`` for an inline call's result; the bytes are looked at
    /// (and sliced) only when results are validated.
    private func checkResult(_ entry: MethodEntry, _ bytes: @autoclosure () -> ArraySlice<UInt8>) -> RPCError? {
        guard entry.resultValidator != nil else { return nil }
        return Self.resultProblem(entry.resultValidator, bytes(), method: entry.descriptor.name, logger: logger)
    }

    /// Under `--validate-results`, the error to send instead of a result that breaks its schema
    /// (logged with every violation); nil when the result is fine or results are not validated.
    private static func resultProblem<Bytes: Collection<UInt8>>(_ validator: CompiledSchema?, _ bytes: Bytes,
                                                                method: String, logger: Logger) -> RPCError? {
        guard let validator else { return nil }
        let violations: [SchemaViolation]
        if let tape = try? JSONTape(copying: bytes) {
            violations = tape.withRoot { validator.validate($0) }
        } else {
            violations = [SchemaViolation(pointer: "", keyword: "json", message: "the result is not JSON")]
        }
        guard !violations.isEmpty else { return nil }
        logger.error("result breaks its schema", metadata: [
            "rpc.method": .string(method),
            "violations": .string(violations.map(\.description).joined(separator: "; ")),
        ])
        return .invalidResult(violations)
    }

    // MARK: Requests that run as tasks

    /// What a finished task answers: the member after the id, `"result":...` or `"error":{...}`.
    typealias Outcome = [UInt8]

    private func startTask(_ entry: MethodEntry, params: any Sendable, context: RequestContext, id rawID: UnsafeRawBufferPointer?,
                           responder: Responder,
                           body: @escaping @Sendable (any Sendable, RequestContext) async throws -> [UInt8]) {
        nextToken += 1
        let token = nextToken
        let loop = connection.loop
        let session = LoopBound(self, loop: loop)
        let engine = self.engine
        let logger = self.logger
        let method = entry.descriptor.name
        var idempotency: IdempotentCall?
        if entry.descriptor.mutates, let key = context.meta.idempotencyKey, let store = engine.idempotency {
            idempotency = IdempotentCall(key: key, store: store)
        }
        let canonicalParams = idempotency == nil ? [] : entry.encodeParams(params)
        let resultValidator = entry.resultValidator
        let task = Task(executorPreference: taskExecutor) {
            let outcome = await RPCSession.run(method: method, params: params, context: context, body: body,
                                         idempotency: idempotency, canonicalParams: canonicalParams,
                                         resultValidator: resultValidator, engine: engine, logger: logger)
            if loop.inLoopThread {
                session.unwrapped.complete(token: token, outcome: outcome)
            } else {
                loop.execute { session.unwrapped.complete(token: token, outcome: outcome) }
            }
        }
        let id = rawID.map { Array($0) }
        var request = InFlight(id: id, method: method, responder: responder, task: task, timer: nil)
        if let timeout = context.meta.timeoutMs.map({ Duration.milliseconds($0) })
            ?? engine.configuration.methodTimeouts[method] ?? engine.configuration.defaultTimeout {
            request.timer = loop.schedule(after: timeout) {
                session.unwrapped.expire(token: token)
            }
        }
        inFlight[token] = request
        if let id { tokensByID[Self.idKey(id)] = token }
        if entry.descriptor.ordered { orderedRunning = token }
        updateReading()
    }

    /// Runs the handler (through the idempotency store when the call has a key) and encodes the
    /// outcome. Off the loop thread.
    private static func run(method: String, params: any Sendable, context: RequestContext,
                            body: @Sendable (any Sendable, RequestContext) async throws -> [UInt8],
                            idempotency: IdempotentCall?, canonicalParams: [UInt8],
                            resultValidator: CompiledSchema?, engine: RPCEngine, logger: Logger) async -> Outcome {
        if let idempotency {
            let key = idempotency.key, store = idempotency.store
            let digest = String(decoding: canonicalParams, as: UTF8.self)
            do {
                switch try await store.claim(profile: context.profile, key: key, method: method, paramsDigest: digest,
                                               now: context.now) {
                case .replay(let outcome):
                    return Array(outcome.utf8)
                case .conflict:
                    return errorOutcome(RPCError(.idempotencyConflict, "Idempotency key reused",
                                                 data: ["detail": .string("the key was used before with other params or another method")]))
                case .inProgress:
                    return errorOutcome(RPCError(.idempotencyConflict, "Idempotency key in use",
                                                 data: ["detail": .string("a call with this key is still running")]))
                case .claimed:
                    break
                }
            } catch {
                return errorOutcome(engine.wireError(error, method: method, logger: logger))
            }
            let outcome = await execute(method: method, params: params, context: context, body: body,
                                        resultValidator: resultValidator, engine: engine, logger: logger)
            do {
                // A full store is not the call's answer to keep: its retry, once there is room, runs
                // anew instead of replaying "Store full" for the key's whole retention (and the
                // claim is not left in progress when the record itself does not fit).
                if Task.isCancelled || outcome.starts(with: storeFullPrefix) {
                    try await store.abandon(profile: context.profile, key: key)
                } else {
                    try await store.complete(profile: context.profile, key: key,
                                             outcome: String(decoding: outcome, as: UTF8.self))
                }
            } catch {
                logger.error("idempotency record failed", metadata: ["rpc.method": .string(method), "error": .string("\(error)")])
            }
            return outcome
        }
        return await execute(method: method, params: params, context: context, body: body,
                             resultValidator: resultValidator, engine: engine, logger: logger)
    }

    private static func execute(method: String, params: any Sendable, context: RequestContext,
                                body: @Sendable (any Sendable, RequestContext) async throws -> [UInt8],
                                resultValidator: CompiledSchema?, engine: RPCEngine, logger: Logger) async -> Outcome {
        do {
            let result = try await body(params, context)
            if let problem = resultProblem(resultValidator, result, method: method, logger: logger) {
                return errorOutcome(problem)
            }
            var writer = JSONWriter(capacity: result.count + 10)
            writer.raw("\"result\":")
            writer.raw(result)
            return writer.bytes
        } catch {
            return errorOutcome(engine.wireError(error, method: method, logger: logger))
        }
    }

    /// How ``errorOutcome(_:)`` begins for ``RPCError/Code/storeFull``.
    private static let storeFullPrefix = Array(#""error":{"code":\#(RPCError.Code.storeFull.rawValue),"#.utf8)

    private static func errorOutcome(_ error: RPCError) -> Outcome {
        error.responseMember
    }

    /// A task finished: write its answer, unless the request was cancelled or expired meanwhile.
    private func complete(token: UInt64, outcome: Outcome) {
        guard let request = inFlight.removeValue(forKey: token) else { return }
        request.timer?.cancel()
        let releasesOrder = orderedRunning == token
        if releasesOrder { orderedRunning = nil }
        if let id = request.id {
            tokensByID.removeValue(forKey: Self.idKey(id))
            id.withUnsafeBytes { writeOutcome(outcome, id: $0, to: request.responder) }
        } else if case .batch(let collector) = request.responder {
            collect(nil, into: collector)
        }
        flush()
        if releasesOrder {
            runWaitingOrderedCalls()
            flush()
        }
        updateReading()
        finishIfDone()
    }

    private func expire(token: UInt64) {
        guard let request = inFlight[token] else { return }
        request.task?.cancel()
        complete(token: token, outcome: Self.errorOutcome(RPCError(.deadlineExceeded, "Deadline exceeded",
                                                                   data: ["method": .string(request.method)])))
    }

    /// `$/cancelRequest`: answers the request with the cancelled error now and cancels its task.
    private func cancel(idKey: [UInt8]) -> Bool {
        guard let token = tokensByID[idKey], let request = inFlight[token] else { return false }
        request.task?.cancel()
        complete(token: token, outcome: Self.errorOutcome(RPCError(.cancelled, "Request cancelled")))
        return true
    }

    /// The key under which a request id is found by `$/cancelRequest`: its canonical JSON form.
    static func idKey(_ raw: [UInt8]) -> [UInt8] {
        guard let tape = try? JSONTape(copying: raw) else { return raw }
        var writer = JSONWriter(capacity: raw.count)
        tape.withRoot { JSONValue($0) }.encode(to: &writer)
        return writer.bytes
    }

    private func updateReading() {
        let shouldPause = inFlight.count + orderedWaiting.count >= engine.configuration.maxInFlight
        if shouldPause != readingPaused {
            readingPaused = shouldPause
            connection.setReadingPaused(shouldPause)
        }
    }

    // MARK: Output

    /// Writes `{"jsonrpc":"2.0","id":ID` and then `member` (`,` or `,"result":`), in as few
    /// appends as it can: each costs about as much as copying a hundred bytes.
    private func writeResponsePrefix(id: UnsafeRawBufferPointer, into writer: inout JSONWriter,
                                     then member: StaticString = ",") {
        writer.raw("{\"jsonrpc\":\"2.0\",\"id\":")
        writer.raw(id)
        writer.raw(member)
    }

    /// Answers a well-formed request that failed before running (nothing for a notification:
    /// the specification never answers those).
    private func reply(_ id: UnsafeRawBufferPointer?, _ responder: Responder, _ error: () -> RPCError) {
        guard let id else {
            if case .batch(let collector) = responder { collect(nil, into: collector) }
            return
        }
        writeError(error(), id: id, to: responder)
    }

    private func writeError(_ error: RPCError, id: UnsafeRawBufferPointer?, to responder: Responder) {
        var fragment = JSONWriter(capacity: 96)
        fragment.raw("\"error\":")
        error.encode(to: &fragment)
        if let id {
            writeOutcome(fragment.bytes, id: id, to: responder)
        } else {
            Self.nullID.withUnsafeBytes { writeOutcome(fragment.bytes, id: $0, to: responder) }
        }
    }

    private static let nullID: [UInt8] = Array("null".utf8)

    private func writeOutcome(_ outcome: Outcome, id: UnsafeRawBufferPointer, to responder: Responder) {
        switch responder {
        case .direct:
            writeResponsePrefix(id: id, into: &output)
            output.raw(outcome)
            output.raw("}\n")
        case .batch(let collector):
            var response = JSONWriter(capacity: outcome.count + id.count + 24)
            writeResponsePrefix(id: id, into: &response)
            response.raw(outcome)
            response.endObject()
            collect(response.bytes, into: collector)
        }
    }

    /// Adds one member's answer (nil for a notification) to its batch; writes the batch's array
    /// when the last member is in (nothing at all when every member was a notification).
    private func collect(_ response: [UInt8]?, into collector: BatchCollector) {
        if let response { collector.responses.append(response) }
        collector.pending -= 1
        guard collector.pending == 0, !collector.responses.isEmpty else { return }
        output.beginArray()
        for response in collector.responses {
            output.element()
            output.raw(response)
        }
        output.raw("]\n")
    }

    fileprivate func writeNotification(_ bytes: [UInt8]) {
        guard !finished else { return }
        output.raw(bytes)
        flush()
    }

    private func flush() {
        guard !output.bytes.isEmpty else { return }
        output.bytes.withUnsafeBytes { connection.write($0) }
        output.bytes.removeAll(keepingCapacity: true)
    }
}

/// The answers of one batch, gathered until every member has answered.
final class BatchCollector {
    var pending = 0
    var responses: [[UInt8]] = []
}

/// A call made with an idempotency key, and the store that remembers its answer.
struct IdempotentCall: Sendable {
    let key: String
    let store: any IdempotencyStore
}

/// The session as closures that outlive a call (notifications sent later) reach it: strong
/// until the connection closes, then nil.
///
/// Not a `weak` reference: an object that is weakly referenced keeps its reference counts in a
/// side table, and every retain and release of the session (one pair per request line) then took
/// the slow path (~5 % of `rpc.health`'s CPU in perf).
final class SessionReference {
    var session: RPCSession?
}
