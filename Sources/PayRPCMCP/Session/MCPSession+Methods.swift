import PayRPCCore
import Logging
import PayRPCJSON

/// The protocol's own requests and notifications: the handshake of either era, `ping`, the
/// lists, resources and logging. `tools/call` is in `MCPSession+Tools.swift`.
extension MCPSession {
    // MARK: Requests

    /// Answers one request: the era first (``MCPEraMachine``), then the method.
    func request(_ method: MCPMethod, name: JSONElement, id: UnsafeRawBufferPointer, params: JSONElement?) {
        if method == .initialize {
            initialize(id: id, params: params)
            return
        }
        let envelope = Self.envelope(params)
        let verdict =
            method == .ping
            ? era.ping(envelope: envelope)
            : era.request(discover: method == .discover, envelope: envelope)
        let answerEra: MCPEra
        switch verdict {
        case .answer(let settled):
            answerEra = settled
        case .refuse(let error):
            output.writeError(error, id: id, to: .direct)
            return
        }
        if answerEra == .stateless {
            // The stateless revision opts in to log messages per request.
            logLevel = params?.member("_meta")?.member(MCPProtocolVersion.logLevelKey)?.string.flatMap(MCPLogLevel.init)
        }
        switch method {
        case .ping:
            reply(id, answerEra) { _ in }
        case .discover:
            reply(id, answerEra, cacheable: true) { writer in
                writer.key("supportedVersions")
                JSONValue.array(MCPProtocolVersion.all.map { .string($0) }).encode(to: &writer)
                writeCapabilitiesAndInstructions(&writer)
            }
        case .toolsList:
            guard params?.member("cursor") == nil else {
                output.writeError(
                    RPCError(.invalidParams, "Invalid params", data: ["detail": "unknown cursor: the list has one page"]),
                    id: id, to: .direct)
                return
            }
            let tools = engine.configuration.sandbox ? server.catalog.listedInSandbox : server.catalog.listedOutsideSandbox
            reply(id, answerEra, cacheable: true) { writer in
                writer.key("tools")
                writer.raw(tools)
            }
        case .toolsCall:
            callTool(id: id, era: answerEra, params: params)
        case .resourcesList:
            reply(id, answerEra, cacheable: true) { writer in
                writer.key("resources")
                writer.raw(server.resources.listed)
            }
        case .resourceTemplatesList:
            reply(id, answerEra, cacheable: true) { writer in
                writer.key("resourceTemplates")
                writer.raw("[]")
            }
        case .resourcesRead:
            readResource(id: id, era: answerEra, params: params)
        case .setLogLevel:
            guard let level = params?.member("level")?.string.flatMap(MCPLogLevel.init) else {
                let levels = MCPLogLevel.allCases.map(\.rawValue).joined(separator: ", ")
                output.writeError(
                    RPCError(.invalidParams, "Invalid params", data: ["detail": .string("level must be one of \(levels)")]),
                    id: id, to: .direct)
                return
            }
            logLevel = level
            reply(id, answerEra) { _ in }
        case .unknown:
            output.writeError(.methodNotFound(name.string ?? ""), id: id, to: .direct)
        case .initialize:
            break
        }
    }

    /// `initialize`: settles the handshake era.
    private func initialize(id: UnsafeRawBufferPointer, params: JSONElement?) {
        switch era.initialize(requested: params?.member("protocolVersion")?.string) {
        case .failure(let error):
            output.writeError(error, id: id, to: .direct)
        case .success(let version):
            if let client = params?.member("clientInfo")?.member("name")?.string {
                logger.info("MCP initialize", metadata: ["client": .string(client), "mcp.protocolVersion": .string(version)])
            }
            reply(id, .handshake) { writer in
                writer.key("protocolVersion")
                writer.string(version)
                writer.key("serverInfo")
                writer.raw(server.serverInfo)
                writeCapabilitiesAndInstructions(&writer)
            }
        }
    }

    private func writeCapabilitiesAndInstructions(_ writer: inout JSONWriter) {
        writer.key("capabilities")
        writer.raw(#"{"logging":{},"resources":{"listChanged":false,"subscribe":false},"tools":{"listChanged":false}}"#)
        writer.key("instructions")
        writer.string(MCPServer.instructions)
    }

    /// `resources/read`.
    private func readResource(id: UnsafeRawBufferPointer, era: MCPEra, params: JSONElement?) {
        guard let uri = params?.member("uri")?.string else {
            output.writeError(
                RPCError(.invalidParams, "Invalid params", data: ["detail": "resources/read needs params.uri, a string"]),
                id: id, to: .direct)
            return
        }
        guard let resource = server.resources.resource(uri: uri) else {
            output.writeError(RPCError(.resourceNotFound, "Resource not found", data: ["uri": .string(uri)]), id: id, to: .direct)
            return
        }
        reply(id, era, cacheable: true) { writer in
            writer.key("contents")
            writer.raw("[{")
            writer.key("uri")
            writer.string(resource.uri)
            writer.key("mimeType")
            writer.string(resource.mimeType)
            writer.key("text")
            writer.string(resource.text)
            writer.raw("}]")
        }
    }

    /// What a request's `_meta` says about its era.
    static func envelope(_ params: JSONElement?) -> MCPEraMachine.Envelope {
        guard let meta = params?.member("_meta"), meta.kind == .object,
            let version = meta.member(MCPProtocolVersion.versionKey)
        else { return .none }
        let capabilities = meta.member(MCPProtocolVersion.capabilitiesKey)
        return .stateless(version: version.string, hasCapabilities: capabilities?.kind == .object)
    }

    // MARK: Notifications

    /// Answers nothing, as notifications never are; `notifications/cancelled` stops its request.
    func notification(_ method: JSONElement, params: JSONElement?) {
        if method.stringEquals("notifications/cancelled") {
            if let requestID = params?.member("requestId"), requestID.kind == .string || requestID.kind == .number {
                cancel(idKey: CallIDKey.canonical(requestID.rawArray))
            }
        }
        // notifications/initialized, notifications/roots/list_changed, ...: nothing to do.
    }
}

extension RPCError.Code {
    /// MCP: `resources/read` names no resource of the server.
    static let resourceNotFound = RPCError.Code(-32002)
}
