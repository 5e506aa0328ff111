import Logging

/// What each face of the engine (JSON-RPC, MCP) sets up for a new connection: its logger (with
/// `connection.id`), the ``ConnectionSession`` services reach it through, the executor its calls'
/// tasks run on, and whether it starts authenticated.
package struct ConnectionSetup {
    package let logger: Logger
    package let shared: ConnectionSession
    package let taskExecutor: LoopTaskExecutor
    package let authenticated: Bool

    /// - Parameters:
    ///   - reference: how later notifications reach the session (nil once the connection closed).
    ///   - deliver: frames a notification for the session; on the loop thread.
    package init<Session: AnyObject>(
        engine: RPCEngine, connection: any RPCConnection, reference: LoopBound<SessionReference<Session>>,
        deliver: @escaping @Sendable (Session, String, [UInt8]) -> Void
    ) {
        // The transport's id: one number per connection in every log line.
        let id = connection.id
        var logger = engine.logger
        logger[metadataKey: "connection.id"] = .stringConvertible(id)
        self.logger = logger
        let loop = connection.loop
        self.shared = ConnectionSession(
            id: id, transport: connection.transport, loop: loop,
            deliver: { name, params in
                loop.execute {
                    if let session = reference.unwrapped.session { deliver(session, name, params) }
                }
            },
            notificationCheck: engine.router.notificationCheck(logger: logger), directory: engine.connections)
        self.taskExecutor = LoopTaskExecutor(loop: loop)
        self.authenticated = engine.configuration.access == nil || connection.transport == .stdio
        // Notifications held for its profile are written on the loop, after the session is set up.
        if authenticated { shared.admit() }
    }
}
