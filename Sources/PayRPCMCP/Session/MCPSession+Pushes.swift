import PayRPCCore
import PayRPCJSON

/// Pushes: the SDK callbacks the services send to this connection. MCP clients drop
/// notifications they do not know, so each is queued for `session_takeNotifications` (and hands
/// itself to a waiting one), and also sent as a `notifications/message` log message when the
/// client opted in at its level or below.
extension MCPSession {
    /// A service sent `name` with `params` to this connection. On the loop thread.
    func push(_ name: String, params: [UInt8]) {
        guard !life.finished else { return }
        pushes.append(name, params: params)
        if let logLevel, logLevel <= MCPLogLevel.push {
            notify("notifications/message") { writer in
                writer.beginObject()
                writer.key("level")
                writer.string(MCPLogLevel.push.rawValue)
                writer.key("logger")
                writer.string("payrpc")
                writer.key("data")
                writer.beginObject()
                writer.key("method")
                writer.string(name)
                writer.key("params")
                writer.raw(params)
                writer.endObject()
                writer.endObject()
            }
        }
        if let token = firstWaitForPush { answerWait(token: token) }
        flush()
    }
}
