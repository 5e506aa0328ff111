import PayRPCCore
import Logging
import PayRPCJSON

/// The MCP side of one connection: parses each line once, classifies it with one switch, answers
/// the protocol's requests and runs tool calls through the engine's router, validators and
/// ``Call``s. Loop-thread only, like ``RPCSession``.
///
/// Its jobs live in files of their own: the connection's events, the envelope and the replies
/// here; the protocol's methods in `MCPSession+Methods.swift`; `tools/call` in
/// `MCPSession+Tools.swift`; calls that wait (tasks, deadlines, cancellation, progress, ordered
/// calls) in `MCPSession+Calls.swift`; pushes in `MCPSession+Pushes.swift`.
final class MCPSession: GatheringSession {
    let server: MCPServer
    let engine: RPCEngine
    let connection: any RPCConnection
    let taskExecutor: LoopTaskExecutor
    let shared: ConnectionSession
    let logger: Logger
    /// Cleared when the connection closes, which breaks the cycle through ``shared``.
    private let reference: LoopBound<SessionReference<MCPSession>>
    let tape = JSONTape()
    var output = SessionOutput()
    var era = MCPEraMachine()
    /// The tool calls not answered yet (running, waiting for a push, or waiting their turn), and
    /// the ordered calls' turns.
    var calls = CallBook<MCPPendingCall>()
    var pushes = MCPPushQueue()
    /// The level the client opted in to (`logging/setLevel`, or the stateless request's
    /// `_meta` log level); nil: no log messages.
    var logLevel: MCPLogLevel?
    var authenticated: Bool
    /// Input ended, finished, reading paused.
    var life = SessionLife()

    init(server: MCPServer, connection: any RPCConnection) {
        self.server = server
        self.engine = server.engine
        self.connection = connection
        let reference = LoopBound(SessionReference<MCPSession>(), loop: connection.loop)
        self.reference = reference
        let setup = ConnectionSetup(engine: server.engine, connection: connection, reference: reference) {
            session, name, params in
            session.push(name, params: params)
        }
        self.taskExecutor = setup.taskExecutor
        self.logger = setup.logger
        self.shared = setup.shared
        self.authenticated = setup.authenticated
        reference.unwrapped.session = self
        shared.authenticate = { [unowned self] in authenticated = true }
        logger.debug(
            "MCP connection opened",
            metadata: ["peer": .string(connection.peer), "transport": .string(connection.transport.rawValue)])
    }

    var hasWorkInFlight: Bool { !calls.isIdle }

    // MARK: Input

    func received(line: UnsafeRawBufferPointer) -> Int {
        guard !life.finished else { return 0 }
        do {
            try tape.parse(line)
        } catch {
            output.writeError(RPCError.parse(error.description), id: nil, to: .direct)
            return output.writer.bytes.count
        }
        let root = tape.root
        switch root.kind {
        case .object:
            handle(root)
        case .array:
            output.writeError(.invalidRequest("MCP has no batches: send one message per line"), id: nil, to: .direct)
        case .null, .bool, .number, .string:
            output.writeError(.invalidRequest("a message must be an object"), id: nil, to: .direct)
        }
        return output.writer.bytes.count
    }

    func inputEnded() {
        life.endInput()
        answerWaitsNow()
        flush()
        finishIfDone()
    }

    func connectionClosed() {
        life.close()
        calls.stopAll()
        shared.authenticate = nil
        reference.unwrapped.session = nil
        shared.markClosed()
        logger.debug("MCP connection closed")
    }

    // MARK: One message

    /// Reads one message's envelope and answers it: a request, a notification, or a response
    /// (ignored: the server sends no requests).
    private func handle(_ message: JSONElement) {
        var version: JSONElement?
        var methodName: JSONElement?
        var params: JSONElement?
        var idElement: JSONElement?
        var isResponse = false
        for (name, value) in message.objectMembers {
            if name.stringEquals("jsonrpc") {
                version = value
            } else if name.stringEquals("method") {
                methodName = value
            } else if name.stringEquals("params") {
                params = value
            } else if name.stringEquals("id") {
                idElement = value
            } else if name.stringEquals("result") || name.stringEquals("error") {
                isResponse = true
            }
        }
        var id: UnsafeRawBufferPointer?
        if let idElement {
            switch idElement.kind {
            case .string, .number:
                id = idElement.rawBytes
            case .null, .bool, .array, .object:
                output.writeError(.invalidRequest("id must be a string or a number"), id: nil, to: .direct)
                return
            }
        }
        guard let version, version.stringEquals("2.0") else {
            output.writeError(.invalidRequest("jsonrpc must be \"2.0\""), id: id, to: .direct)
            return
        }
        guard let methodName, methodName.kind == .string else {
            if isResponse && methodName == nil { return }
            output.writeError(.invalidRequest("method must be a string"), id: id, to: .direct)
            return
        }
        if let params, params.kind != .object {
            if id != nil { output.writeError(.invalidRequest("params must be an object"), id: id, to: .direct) }
            return
        }
        guard let id else {
            notification(methodName, params: params)
            return
        }
        request(MCPMethod(methodName), name: methodName, id: id, params: params)
    }

    // MARK: Output

    /// Writes a result: `members` inside the result object, then what a stateless result carries
    /// (`resultType`, the caching hint when `cacheable`, the server's identity in `_meta`).
    func reply(
        _ id: UnsafeRawBufferPointer, _ era: MCPEra, cacheable: Bool = false,
        _ members: (inout JSONWriter) -> Void
    ) {
        SessionOutput.writeResponsePrefix(id: id, into: &output.writer, then: ",\"result\":{")
        members(&output.writer)
        if era == .stateless {
            output.writer.key("resultType")
            output.writer.raw("\"complete\"")
            if cacheable {
                output.writer.key("ttlMs")
                output.writer.int(Self.listTTLMilliseconds)
                output.writer.key("cacheScope")
                output.writer.raw("\"public\"")
            }
            output.writer.key("_meta")
            output.writer.raw("{\"io.modelcontextprotocol/serverInfo\":")
            output.writer.raw(server.serverInfo)
            output.writer.endObject()
        }
        output.writer.raw("}}\n")
    }

    /// How long a stateless client may keep a list, a resource or the discovery result: they
    /// do not change while the server runs.
    static let listTTLMilliseconds = 300_000

    /// Writes a notification line.
    func notify(_ method: StaticString, _ params: (inout JSONWriter) -> Void) {
        output.writer.raw("{\"jsonrpc\":\"2.0\",\"method\":\"")
        output.writer.raw(method)
        output.writer.raw("\",\"params\":")
        params(&output.writer)
        output.writer.raw("}\n")
    }
}
