import PayRPCCore
import Logging
import PayRPCJSON
import PayRPCSchema

/// `tools/call`: the tool's method runs through the engine's checks (authentication, the params
/// schema, an armed `sandbox.failNext`, ordered calls, idempotency keys, deadlines) and its answer
/// becomes a tool result: `structuredContent` (the result, or `{"result": …}` where it is not an
/// object) and the same JSON as a text block; a domain error, invalid arguments or a deadline are
/// a result with `isError` whose `structuredContent` is the JSON-RPC error `{code, message, data}`.
extension MCPSession {
    /// Answers a `tools/call` (or starts it).
    func callTool(id: UnsafeRawBufferPointer, era: MCPEra, params: JSONElement?) {
        guard let params, let name = params.member("name")?.string else {
            output.writeError(
                RPCError(.invalidParams, "Invalid params", data: ["detail": "tools/call needs params.name, a string"]),
                id: id, to: .direct)
            return
        }
        guard let tool = server.catalog.tool(named: name), engine.configuration.sandbox || !tool.sandboxOnly else {
            output.writeError(
                RPCError(.invalidParams, "Unknown tool: \(name)", data: ["tool": .string(name)]), id: id, to: .direct)
            return
        }
        var arguments = params.member("arguments")
        if arguments?.kind == .null { arguments = nil }
        if let arguments, arguments.kind != .object {
            output.writeError(
                RPCError(.invalidParams, "Invalid params", data: ["detail": "arguments must be an object"]),
                id: id, to: .direct)
            return
        }
        var meta = RequestMeta()
        var progressToken: [UInt8]?
        if let metaElement = params.member("_meta") {
            do {
                meta = try RequestMeta(parsing: metaElement)
            } catch {
                output.writeError(error, id: id, to: .direct)
                return
            }
            if let token = metaElement.member("progressToken"), token.kind == .string || token.kind == .number {
                progressToken = token.rawArray
            }
        }
        let argumentsElement = arguments ?? NormalizedParams.emptyObject.root
        switch tool.action {
        case .takeNotifications:
            let request = MCPToolRequest(
                id: Array(id), era: era, wrapsResult: false, method: tool.name, progressToken: progressToken)
            takeNotifications(argumentsElement, request: request)
        case .method(let entry):
            let request = MCPToolRequest(
                id: Array(id), era: era, wrapsResult: tool.wrapsResult, method: entry.descriptor.name,
                progressToken: progressToken)
            callMethod(entry, arguments: argumentsElement, meta: meta, request: request)
        }
    }

    /// Checks a method's call as the JSON-RPC face does, then runs it (or queues it behind the
    /// running ordered call).
    private func callMethod(_ entry: MethodEntry, arguments: JSONElement, meta: RequestMeta, request: MCPToolRequest) {
        let descriptor = entry.descriptor
        if !authenticated && !descriptor.allowedBeforeAuthentication {
            writeToolResult(
                request,
                MCPToolOutcome(
                    RPCError(
                        .unauthenticated, "Unauthenticated",
                        data: ["detail": "call rpc_hello with the server's token first"])))
            return
        }
        // Validated here even for a method whose decoder checks its params (the tools are not the
        // hot path): the armed failure below is looked at only for valid arguments.
        do throws(RPCError) {
            let violations = try entry.paramsSchema.violations(arguments)
            guard violations.isEmpty else { throw RPCError.invalidParams(violations) }
        } catch {
            writeToolResult(request, MCPToolOutcome(error))
            return
        }
        if let trace = meta.traceparent {
            logger.info("call", metadata: ["rpc.method": .string(descriptor.name), "traceparent": .string(trace)])
        }
        let context = RequestContext(
            connection: shared, profile: shared.profile, meta: meta, logger: logger,
            isSandbox: engine.configuration.sandbox, sandbox: engine.sandbox)
        if let failure = engine.takeArmedFailure(for: descriptor, profile: context.profile) {
            if failure.mustBeSaved {
                answerAfterSaving(MCPToolOutcome(failure.error), request: request)
            } else {
                writeToolResult(request, MCPToolOutcome(failure.error))
            }
            return
        }
        let idempotent = descriptor.mutates && meta.idempotencyKey != nil && engine.idempotency != nil
        let waitsItsTurn = descriptor.ordered && calls.orderedCallWaits
        if let answerInline = entry.answerInline, !waitsItsTurn, !idempotent, engine.answersInline(entry.descriptor) {
            runInline(entry, request: request) { writer in try answerInline(arguments, context, &writer) }
            return
        }
        let prepared: PreparedCall
        do {
            prepared = try entry.prepare(arguments)
        } catch {
            writeToolResult(request, MCPToolOutcome(error))
            return
        }
        if waitsItsTurn {
            waitTurn(entry, prepared, context: context, request: request)
        } else {
            run(entry, prepared, context: context, request: request)
        }
    }

    /// Runs a prepared call: inline, or as a task that answers when it completes.
    func run(
        _ entry: MethodEntry, _ prepared: PreparedCall, context: RequestContext, request: MCPToolRequest,
        token: UInt64? = nil
    ) {
        let idempotent = entry.descriptor.mutates && context.meta.idempotencyKey != nil && engine.idempotency != nil
        if let runHandler = prepared.runInline, !idempotent, engine.answersInline(entry.descriptor) {
            if let token { forget(token: token) }
            runInline(entry, request: request) { writer in try runHandler(context, &writer) }
            return
        }
        startTask(
            Call(entry: entry, prepared: prepared, context: context, engine: engine),
            ordered: entry.descriptor.ordered, request: request, token: token)
    }

    /// Runs an inline handler and answers at once.
    /// A handler that changed the profile's sandbox state (its clock, a seeded draw) answers once
    /// that change is saved, as on the JSON-RPC face.
    private func runInline(_ entry: MethodEntry, request: MCPToolRequest, _ produce: (inout JSONWriter) throws -> Void) {
        let changesBefore = engine.sandboxActivity.changes
        var writer = JSONWriter(capacity: 256)
        let outcome: MCPToolOutcome
        do {
            try produce(&writer)
            if entry.resultValidator != nil,
                let problem = Call.resultProblem(
                    entry.resultValidator, writer.bytes, method: entry.descriptor.name, logger: logger)
            {
                outcome = MCPToolOutcome(problem)
            } else {
                outcome = .result(writer.bytes[...])
            }
        } catch {
            outcome = MCPToolOutcome(engine.wireError(error, method: entry.descriptor.name, logger: logger))
        }
        if engine.sandboxActivity.changes != changesBefore {
            answerAfterSaving(outcome, request: request)
        } else {
            writeToolResult(request, outcome)
        }
    }

    /// Writes a tool result: `structuredContent`, the same JSON as a text block, and `isError`.
    func writeToolResult(_ request: MCPToolRequest, _ outcome: MCPToolOutcome) {
        var structured = JSONWriter(capacity: 256)
        let isError: Bool
        switch outcome {
        case .result(let bytes):
            isError = false
            if request.wrapsResult {
                structured.raw("{\"result\":")
                structured.bytes.append(contentsOf: bytes)
                structured.endObject()
            } else {
                structured.bytes.append(contentsOf: bytes)
            }
        case .error(let bytes):
            isError = true
            structured.bytes.append(contentsOf: bytes)
        }
        request.id.withUnsafeBytes { id in
            reply(id, request.era) { writer in
                writer.key("content")
                writer.raw("[{\"type\":\"text\",\"text\":")
                structured.bytes.withUnsafeBytes { writer.string(utf8: $0) }
                writer.raw("}]")
                writer.key("structuredContent")
                writer.raw(structured.bytes)
                writer.key("isError")
                writer.bool(isError)
            }
        }
    }
}
