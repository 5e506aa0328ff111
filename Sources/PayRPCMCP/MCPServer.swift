import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The Model Context Protocol face of the engine (`payrpc serve --mcp`): every method a tool,
/// the schemas and service guides resources, the SDK callbacks a queue a tool reads, served by
/// the same engine, router, validators and calls as the JSON-RPC face, over the same transports
/// and NDJSON framing.
///
/// The transport asks it for one ``MCPSession`` per connection instead of the engine's
/// JSON-RPC session; nothing on the JSON-RPC path changes.
public final class MCPServer: RPCConnectionHandlerFactory, Sendable {
    /// The engine whose router, limits, stores and sandbox the tools use.
    public let engine: RPCEngine
    /// The tools.
    public let catalog: MCPToolCatalog
    let resources: MCPResources
    /// `session_takeNotifications`'s input schema, compiled.
    let notificationsInput: CompiledSchema
    /// `{"name":"payrpc","version":...}`.
    let serverInfo: [UInt8]

    /// - Parameters:
    ///   - engine: the engine to serve.
    ///   - documents: the service guides to offer as resources.
    /// - Throws: ``RouterBuildError`` when a method cannot be a tool (see ``MCPToolCatalog``).
    public init(engine: RPCEngine, documents: [MCPDocument]) throws(RouterBuildError) {
        self.engine = engine
        self.catalog = try MCPToolCatalog(router: engine.router)
        self.resources = MCPResources(router: engine.router, version: engine.configuration.version, documents: documents)
        do {
            self.notificationsInput = try CompiledSchema(MCPNotificationsTool.inputSchema)
        } catch {
            throw RouterBuildError(message: "the schema of \(MCPNotificationsTool.name) does not compile: \(error)")
        }
        var info = JSONWriter(capacity: 64)
        JSONValue.object([
            .init("name", .string(engine.configuration.serverName)),
            .init("version", .string(engine.configuration.version)),
        ]).encode(to: &info)
        self.serverInfo = info.bytes
    }

    /// Called by the transport on the loop thread for each new connection.
    public func makeHandler(for connection: any RPCConnection) -> any RPCConnectionHandler {
        MCPSession(server: self, connection: connection)
    }

    /// What `initialize` and `server/discover` tell a host about the server.
    static let instructions = """
        payrpc serves five mobile payment SDK sandboxes (Tatra banka PayKey, Pay by Bank app, a payment journal, \
        PayPal Northstar, Dotpay) as tools named <service>_<method>. Call rpc_hello {profile, seed} first to pick a \
        state profile and make generated values repeatable; sandbox_* tools play the bank, the device and the \
        customer, and sandbox_reset starts a profile afresh. SDK callbacks are queued per session: read them with \
        session_takeNotifications {waitMs}. Each service's guide is the resource payrpc://docs/<service>.md.
        """
}
