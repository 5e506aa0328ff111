import PayRPCCore
import PayRPCJSON

/// One MCP tool: what `tools/list` shows, and what `tools/call` runs.
struct MCPTool: Sendable {
    /// What a call of the tool runs.
    enum Action: Sendable {
        /// A router method.
        case method(MethodEntry)
        /// The session's push queue (``MCPNotificationsTool``).
        case takeNotifications
    }

    /// The tool's name.
    let name: String
    let action: Action
    /// The tool as listed.
    let definition: JSONValue
    /// Whether `structuredContent` wraps the method's result as `{"result": …}`.
    let wrapsResult: Bool
    /// Whether the tool is listed only in sandbox mode.
    let sandboxOnly: Bool

    /// The tool of a router method.
    init(entry: MethodEntry) throws(RouterBuildError) {
        let descriptor = entry.descriptor
        let name = try MCPToolName.make(method: descriptor.name)
        let output = MCPToolSchema.output(descriptor)
        self.name = name
        self.action = .method(entry)
        self.wrapsResult = output.wrapsResult
        self.sandboxOnly = descriptor.sandboxOnly
        self.definition = .object([
            .init("name", .string(name)),
            .init("title", .string(descriptor.name)),
            .init("description", .string(MCPToolDescription.text(descriptor))),
            .init("inputSchema", try MCPToolSchema.input(descriptor)),
            .init("outputSchema", output.schema),
            .init("annotations", MCPToolDescription.annotations(descriptor)),
            .init("_meta", MCPToolDescription.meta(descriptor)),
        ])
    }

    /// The session's notifications tool.
    init(notifications: [NotificationDescriptor]) {
        self.name = MCPNotificationsTool.name
        self.action = .takeNotifications
        self.wrapsResult = false
        self.sandboxOnly = false
        self.definition = MCPNotificationsTool.definition(notifications: notifications)
    }
}
