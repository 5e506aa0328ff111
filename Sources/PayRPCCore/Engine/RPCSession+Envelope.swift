import PayRPCJSON

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
            output.writeError(RPCError(.invalidRequest, "Invalid Request: batch too large",
                                       data: ["detail": .string("a batch may have at most \(maxBatch) members"),
                                              "limit": .int(maxBatch)]),
                              id: nil, to: .direct)
            return
        }
        let collector = BatchCollector()
        collector.pending = batch.count
        for member in batch.arrayElements {
            if member.kind == .object {
                handle(member, responder: .batch(collector))
            } else {
                output.writeError(.invalidRequest("a batch member must be a request object"), id: nil, to: .batch(collector))
            }
        }
    }

    // MARK: One request

    /// Checks one request object (the envelope: id, `jsonrpc`, `method` and `params`, in that
    /// order; then the method, authentication and params) and dispatches it.
    ///
    /// The envelope is read here, not by a value's initializer: as a function of its own that
    /// returns the members, it cost rpc.health about 80 instructions per request (scripts/callgrind.sh).
    func handle(_ request: JSONElement, responder: Responder) {
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
                output.writeError(.invalidRequest("id must be a string, a number or null"), id: nil, to: responder)
                return
            }
        }
        guard let version, version.stringEquals("2.0") else {
            output.writeError(.invalidRequest("jsonrpc must be \"2.0\""), id: id, to: responder)
            return
        }
        guard let methodName, methodName.kind == .string, let nameBytes = methodName.stringContentBytes else {
            output.writeError(.invalidRequest("method must be a string"), id: id, to: responder)
            return
        }
        if let params, params.kind != .object, params.kind != .array {
            output.writeError(.invalidRequest("params must be an object or an array"), id: id, to: responder)
            return
        }
        guard let entry = engine.router.entry(named: nameBytes) ?? (methodName.string.flatMap { name in
            engine.router.table.lookup(name)
        }) else {
            output.reply(id, responder) { (.methodNotFound(methodName.string ?? "")) }
            return
        }
        let descriptor = entry.descriptor
        if !authenticated && !descriptor.allowedBeforeAuthentication {
            output.reply(id, responder) {
                RPCError(.unauthenticated, "Unauthenticated",
                         data: ["detail": .string("call rpc.hello with the server's token first")])
            }
            return
        }
        if descriptor.sandboxOnly && !engine.configuration.sandbox {
            output.reply(id, responder) {
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
            output.reply(id, responder) { (error) }
            return
        }
        // A rewritten params' tape lives in `normalized`: kept until the call has been read.
        defer { withExtendedLifetime(normalized) {} }
        let paramsElement = normalized.element
        // Absent params of a method whose schema accepts `{}` need no check (rpc.health's hot path).
        let violations = params == nil && entry.acceptsAbsentParams ? [] : entry.paramsValidator.validate(paramsElement)
        guard violations.isEmpty else {
            output.reply(id, responder) { (.invalidParams(violations)) }
            return
        }
        if let trace = meta?.traceparent {
            logger.info("call", metadata: ["rpc.method": .string(descriptor.name), "traceparent": .string(trace)])
        }
        let context = meta.map(makeContext) ?? plainContext()
        // `sandbox.failNext`: an armed failure answers in place of the handler (one atomic read when none is).
        if let failure = engine.sandbox.takeFailure(profile: context.profile, method: descriptor.name) {
            if engine.sandbox.hasUnsavedChanges {
                // Taken in the store too before the error is sent: a restart cannot fire it again.
                if id == nil, case .batch(let collector) = responder { output.collect(nil, into: collector) }
                answerAfterSaving(id == nil ? nil : Call.errorOutcome(failure.error), method: descriptor.name, id: id,
                                  responder: id == nil ? .direct : responder)
            } else {
                output.reply(id, responder) { failure.error }
            }
            return
        }
        let waitsItsTurn = descriptor.ordered && (orderedRunning != nil || !orderedWaiting.isEmpty)
        let idempotent = descriptor.mutates && context.meta.idempotencyKey != nil && engine.idempotency != nil
        if let answerInline = entry.answerInline, !waitsItsTurn, !idempotent {
            // The usual call: decoded and answered in one go, straight into the response.
            runInline(entry, context: context, id: id, responder: responder) { writer in
                try answerInline(paramsElement, context, &writer)
            }
            return
        }
        let prepared: PreparedCall
        do {
            prepared = try entry.prepare(paramsElement)
        } catch {
            output.reply(id, responder) { (error) }
            return
        }
        if waitsItsTurn {
            waitTurn(entry, prepared, context: context, id: id, responder: responder)
            return
        }
        dispatch(entry, prepared, context: context, id: id, responder: responder)
    }

    // MARK: Contexts

    /// The context of a call that carries `_meta`.
    func makeContext(_ meta: RequestMeta) -> RequestContext {
        RequestContext(connection: shared, profile: shared.profile, meta: meta, logger: logger,
                       isSandbox: engine.configuration.sandbox, sandbox: engine.sandbox)
    }

    /// The context of a call without `_meta`: one for every such call of the connection, made
    /// again when the connection's profile changes.
    func plainContext() -> RequestContext {
        let generation = shared.profileGeneration.load(ordering: .acquiring)
        if let context = cachedPlainContext, cachedPlainContextGeneration == generation { return context }
        let context = makeContext(RequestMeta())
        cachedPlainContext = context
        cachedPlainContextGeneration = generation
        return context
    }
}
