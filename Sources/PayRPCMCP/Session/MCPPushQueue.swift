import PayRPCCore
import PayRPCJSON

/// The pushes (SDK callbacks) of one MCP session, queued until `session_takeNotifications` takes
/// them: MCP clients drop notifications they do not know. Bounded: past ``capacity`` the oldest
/// is dropped and counted, so a client that never reads cannot grow the server.
struct MCPPushQueue {
    /// The most pushes kept.
    static let capacity = 1000

    private var items: [(name: String, params: [UInt8])] = []
    private var dropped = 0

    var isEmpty: Bool { items.isEmpty }

    /// Queues a push.
    mutating func append(_ name: String, params: [UInt8]) {
        if items.count == Self.capacity {
            items.removeFirst()
            dropped += 1
        }
        items.append((name, params))
    }

    /// Writes `{"notifications":[{"method","params"}…],"dropped":N}` and empties the queue.
    mutating func take(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("notifications")
        writer.beginArray()
        for item in items {
            writer.element()
            writer.beginObject()
            writer.key("method")
            writer.string(item.name)
            writer.key("params")
            writer.raw(item.params)
            writer.endObject()
        }
        writer.endArray()
        writer.key("dropped")
        writer.int(dropped)
        writer.endObject()
        items.removeAll()
        dropped = 0
    }
}
