import PayRPCJSON
import Logging
import PayRPCSchema
import Synchronization

/// Batches and the envelope of each request: what is checked before a call is dispatched.
extension RPCSession {
    // MARK: Batches

    func handleBatch(_ batch: JSONElement) {
        guard batch.count > 0 else {
            output.writeError(.invalidRequest("an empty batch"), id: nil, to: .direct)
            return
        }
        let maxBatch = engine.configuration.maxBatch
        guard batch.count <= maxBatch else {
            output.writeError(
                RPCError(
                    .invalidRequest, "Invalid Request: batch too large",
                    data: [
                        "detail": .string("a batch may have at most \(maxBatch) members"),
                        "limit": .int(maxBatch),
                    ]),
                id: nil, to: .direct)
            return
        }
        let collector = BatchCollector()
        collector.pending = batch.count
        for member in batch.arrayElements {
            if member.kind == .object {
                handleBatchMember(member, responder: .batch(collector))
            } else {
                output.writeError(.invalidRequest("a batch member must be a request object"), id: nil, to: .batch(collector))
            }
        }
    }

    // MARK: One request

    /// Checks one request object and dispatches it, in steps: the envelope (id, `jsonrpc`,
    /// `method`, `params`), the method (found, authenticated, allowed), the params (normalized,
    /// `_meta` set aside, validated), an armed failure, then the call. Each step answers what it
    /// refuses and says whether to go on. `"params": null` is the same as no params. A method
    /// whose params decoder checks the schema (``MethodEntry/checksParams``) validates while it
    /// decodes, and the armed failure is looked at between the two and the handler.
    ///
    /// The steps are inlined into this function: as functions of their own returning the
    /// members, reading the envelope cost every request more (docs/benchmarks.md).
    ///
    /// The method's entry and the plain context are used unretained (the router and the session
    /// hold them for longer than the call is read), and the params travel as their element with
    /// the `_meta` kept apart: a retain and a release of each, and copying and destroying a
    /// struct of params and metadata, cost every call more (docs/benchmarks.md).
    ///
    /// With the call journal on, ``handleLine(_:line:)`` and ``handleBatchMember(_:responder:)`` wrap
    /// this to record the call.
    @inline(__always)
    func handleRequest(_ request: JSONElement, responder: Responder) {
        let envelope = RequestEnvelope(request)
        guard case .valid(let id) = checkID(envelope.id, responder: responder) else { return }
        guard let found = resolveMethod(envelope, id: id, responder: responder) else { return }
        found._withUnsafeGuaranteedRef { entry in
            if !entry.descriptor.journalled { journalled.request = nil }
            guard admits(entry, id: id, responder: responder) else { return }
            let normalized: NormalizedParams
            do throws(RPCError) {
                normalized = try NormalizedParams(envelope.params, method: entry.descriptor, absent: absentParams)
            } catch {
                output.reply(id, responder) { (error) }
                return
            }
            // A rewritten params' tape lives in `normalized`: kept until the call has been read.
            defer { withExtendedLifetime(normalized) {} }
            if let metaElement = normalized.meta {
                handle(
                    entry, params: normalized.element, meta: metaElement, paramsAbsent: envelope.params == nil,
                    to: AnswerAddress(id: id, responder: responder))
                return
            }
            plainContext()._withUnsafeGuaranteedRef { context in
                call(
                    entry, params: normalized.element, paramsAbsent: envelope.params == nil, context: context,
                    to: AnswerAddress(id: id, responder: responder))
            }
        }
    }

    /// A call whose params carry `_meta`: read it, then make the call's own context.
    @inline(never)
    private func handle(
        _ entry: MethodEntry, params: JSONElement, meta metaElement: JSONElement, paramsAbsent: Bool,
        to address: AnswerAddress
    ) {
        let meta: RequestMeta
        do throws(RPCError) {
            meta = try RequestMeta(parsing: metaElement)
        } catch {
            output.reply(address.id, address.responder) { (error) }
            return
        }
        call(entry, params: params, paramsAbsent: paramsAbsent, context: makeContext(meta), to: address)
    }

    /// The params validated (unless the method's decoder checks them), then the call. The call's
    /// `_meta` is its context's (a plain context's is empty).
    @inline(__always)
    private func call(
        _ entry: MethodEntry, params: JSONElement, paramsAbsent: Bool, context: RequestContext, to address: AnswerAddress
    ) {
        guard !entry.checksParams else {
            run(entry, params: params, context: context, to: address)
            return
        }
        let id = address.id, responder = address.responder
        do throws(RPCError) {
            let schema = try entry.paramsSchema.schema()
            // Absent params of a method whose schema accepts `{}` need no check.
            let violations = paramsAbsent && schema.acceptsAbsentParams ? [] : schema.schema.validate(params)
            guard violations.isEmpty else { throw RPCError.invalidParams(violations) }
        } catch {
            output.reply(id, responder) { error }
            return
        }
        logTrace(context.meta, entry)
        guard !answeredArmedFailure(entry, context: context, id: id, responder: responder) else { return }
        run(entry, params: params, context: context, to: address)
    }

    /// The id's raw bytes, valid while this line is handled (copied only by requests that outlive
    /// it), or `refused` after answering an id of the wrong kind.
    @inline(__always)
    private func checkID(_ element: JSONElement?, responder: Responder) -> RequestID {
        guard let element else { return .valid(nil) }
        switch element.kind {
        case .string, .number, .null:
            return .valid(element.rawBytes)
        case .bool, .array, .object:
            output.writeError(.invalidRequest("id must be a string, a number or null"), id: nil, to: responder)
            return .refused
        }
    }

    /// The method the envelope names, when the envelope is well formed; nil after answering why
    /// not. Unretained: the router keeps its entries for as long as the engine lives.
    @inline(__always)
    private func resolveMethod(
        _ envelope: RequestEnvelope, id: UnsafeRawBufferPointer?, responder: Responder
    ) -> Unmanaged<MethodEntry>? {
        guard let version = envelope.version, version.stringEquals("2.0") else {
            output.writeError(.invalidRequest("jsonrpc must be \"2.0\""), id: id, to: responder)
            return nil
        }
        guard let methodName = envelope.method, methodName.kind == .string, let nameBytes = methodName.stringContentBytes else {
            output.writeError(.invalidRequest("method must be a string"), id: id, to: responder)
            return nil
        }
        if let params = envelope.params, params.kind != .object, params.kind != .array {
            output.writeError(.invalidRequest("params must be an object or an array"), id: id, to: responder)
            return nil
        }
        if let entry = engine.router.entry(named: nameBytes) { return entry }
        // A name written with escapes: its text looked up.
        if let entry = methodName.string.flatMap({ name in engine.router.table.lookup(name) }) { return entry }
        output.reply(id, responder) { (.methodNotFound(methodName.string ?? "")) }
        return nil
    }

    /// Whether the connection may call the method; false after answering why not.
    @inline(__always)
    private func admits(_ entry: MethodEntry, id: UnsafeRawBufferPointer?, responder: Responder) -> Bool {
        let descriptor = entry.descriptor
        if !authenticated && !descriptor.allowedBeforeAuthentication {
            output.reply(id, responder) {
                RPCError(
                    .unauthenticated, "Unauthenticated",
                    data: ["detail": .string("call rpc.hello with the server's token first")])
            }
            return false
        }
        if descriptor.sandboxOnly && !engine.configuration.sandbox {
            output.reply(id, responder) {
                RPCError(
                    .sandboxOnly, "Sandbox only",
                    data: ["detail": .string("\(descriptor.name) exists only in sandbox mode")])
            }
            return false
        }
        return true
    }

    /// `sandbox.failNext`: an armed failure answers in place of the handler
    /// (``RPCEngine/takeArmedFailure(for:profile:)``). True when it did.
    @inline(__always)
    private func answeredArmedFailure(
        _ entry: MethodEntry, context: RequestContext, id: UnsafeRawBufferPointer?,
        responder: Responder
    ) -> Bool {
        guard let failure = engine.takeArmedFailure(for: entry.descriptor, profile: context.profile) else { return false }
        if failure.mustBeSaved {
            if id == nil, case .batch(let collector) = responder { output.collect(nil, into: collector) }
            answerAfterSaving(
                id == nil ? nil : Call.errorOutcome(failure.error), method: entry.descriptor.name, id: id,
                responder: id == nil ? .direct : responder)
        } else {
            output.reply(id, responder) { failure.error }
        }
        return true
    }

    /// `_meta.traceparent`, logged once a call's params are valid.
    @inline(__always)
    func logTrace(_ meta: RequestMeta, _ entry: MethodEntry) {
        if let trace = meta.traceparent {
            logger.info("call", metadata: ["rpc.method": .string(entry.descriptor.name), "traceparent": .string(trace)])
        }
    }

    /// Runs a call: answered inline in one go (the usual call: its turn, no idempotency key, and
    /// for a method whose decoder checks its params also no traceparent and no failure armed
    /// anywhere), or its params decoded and bound to the handler, then dispatched now or after the
    /// ordered call running. A method whose decoder checks its params (``MethodEntry/checksParams``)
    /// is validated as it is decoded, so its trace log and armed failure come once the params are
    /// valid, here: the order in which ``call(_:params:paramsAbsent:context:to:)`` takes them for
    /// the others, before this.
    @inline(__always)
    private func run(_ entry: MethodEntry, params: JSONElement, context: RequestContext, to address: AnswerAddress) {
        let descriptor = entry.descriptor, checked = entry.checksParams
        let waitsItsTurn = descriptor.ordered && calls.orderedCallWaits
        let idempotent = descriptor.mutates && context.meta.idempotencyKey != nil && engine.idempotency != nil
        if entry.answerInline != nil, !waitsItsTurn, !idempotent,
            !checked || (context.meta.traceparent == nil && !engine.anyFailureArmed),
            engine.answersInline(descriptor)
        {
            // Called through the entry (a constant of a class the caller holds), not bound to a
            // local first: a local copy of the closure cost a retain and a release per call.
            runInline(entry, context: context, id: address.id, responder: address.responder) { writer in
                try entry.answerInline?(params, context, &writer)
            }
            return
        }
        let prepared: PreparedCall
        do {
            prepared = try entry.prepare(params)
        } catch {
            output.reply(address.id, address.responder) { (error) }
            return
        }
        if checked {
            logTrace(context.meta, entry)
            guard !answeredArmedFailure(entry, context: context, id: address.id, responder: address.responder) else {
                return
            }
        }
        if waitsItsTurn {
            waitTurn(entry, prepared, context: context, id: address.id, responder: address.responder)
        } else {
            dispatch(entry, prepared, context: context, id: address.id, responder: address.responder)
        }
    }

    // MARK: Contexts

    /// The context of a call that carries `_meta`.
    func makeContext(_ meta: RequestMeta) -> RequestContext {
        RequestContext(
            connection: shared, profile: shared.profile, meta: meta, logger: logger,
            isSandbox: engine.configuration.sandbox, sandbox: engine.sandbox)
    }

    /// The context of a call without `_meta`: one for every such call of the connection, made
    /// again when the connection's profile changes. Unretained: the session holds it (released
    /// when it is replaced, which happens only here, between calls, or when the session goes);
    /// a call that outlives the line (a task) retains it as it captures it.
    func plainContext() -> Unmanaged<RequestContext> {
        let generation = shared.profileGeneration.load(ordering: .acquiring)
        if let context = cachedPlainContext, cachedPlainContextGeneration == generation { return context }
        let context = Unmanaged.passRetained(makeContext(RequestMeta()))
        cachedPlainContext?.release()
        cachedPlainContext = context
        cachedPlainContextGeneration = generation
        return context
    }
}

/// The members of a request object, read in one pass.
struct RequestEnvelope {
    var version: JSONElement?
    var method: JSONElement?
    var params: JSONElement?
    var id: JSONElement?

    @inline(__always)
    init(_ request: JSONElement) {
        for (name, value) in request.objectMembers {
            // The usual name, without escapes: its length picks the one name it can be, compared
            // in a load or two (comparing it with each name in turn cost every request more).
            if !name.hasEscapes, let key = name.stringContentBytes {
                switch key.count {
                case 7 where Self.equal(key, "jsonrpc"): version = value
                case 6 where Self.equal(key, "method"): method = value
                case 6 where Self.equal(key, "params"): params = value
                case 2 where Self.equal(key, "id"): id = value
                default: break
                }
                continue
            }
            if name.stringEquals("jsonrpc") {
                version = value
            } else if name.stringEquals("method") {
                method = value
            } else if name.stringEquals("params") {
                params = value
            } else if name.stringEquals("id") {
                id = value
            }
        }
        // `"params": null` reads as absent, as jsonrpsee and go-ethereum read it: a stock client's
        // call without arguments (Go's jsonrpc2 `conn.Call(ctx, "rpc.health", nil, &r)`) sends it.
        // Any other value that is not structured is refused, as JSON-RPC 2.0 says.
        if params?.kind == .null { params = nil }
    }

    /// Whether `bytes` spell `text`, when both have the same length of 2 to 8 bytes: two
    /// overlapping loads from each side (the text's fold into constants where it is inlined).
    @inline(__always)
    private static func equal(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        let count = bytes.count
        let left = bytes.baseAddress!, right = UnsafeRawPointer(text.utf8Start)
        if count >= 4 {
            return left.loadUnaligned(as: UInt32.self) == right.loadUnaligned(as: UInt32.self)
                && left.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                    == right.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        return left.loadUnaligned(as: UInt16.self) == right.loadUnaligned(as: UInt16.self)
            && left.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
                == right.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
    }
}

/// A request's id: its raw bytes (nil: a notification), or refused (answered already).
enum RequestID {
    case valid(UnsafeRawBufferPointer?)
    case refused
}
