import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The one tool that is no router method: `session_takeNotifications` hands over the pushes (the
/// SDK callbacks: `pbba.*`, `dotpay.*`, `journal.syncFailed`, ...) queued for the session, since
/// MCP clients drop notifications they do not know.
///
/// Its output lists each push as `{method, params}`, typed by the router's notification
/// declarations (one `anyOf` branch per notification).
enum MCPNotificationsTool {
    /// The tool's name.
    static let name = "session_takeNotifications"
    /// The longest `waitMs` accepted.
    static let longestWaitMs = 60_000

    /// The input schema: an optional wait.
    static let inputSchema: JSONValue = .object([
        .init("type", "object"),
        .init(
            "properties",
            .object([
                .init(
                    "waitMs",
                    .object([
                        .init("type", "integer"), .init("minimum", 0), .init("maximum", .int(longestWaitMs)),
                        .init(
                            "description",
                            "When nothing is queued, wait up to this many milliseconds for a push (default 0: answer at once)."),
                    ]))
            ])),
        .init("additionalProperties", false),
    ])

    /// The tool's definition as `tools/list` shows it.
    static func definition(notifications: [NotificationDescriptor]) -> JSONValue {
        var definitions = SchemaDefinitions()
        var branches: [JSONValue] = []
        for notification in notifications {
            definitions.merge(notification.definitions)
            branches.append(
                .object([
                    .init("type", "object"),
                    .init(
                        "properties",
                        .object([
                            .init("method", .object([.init("const", .string(notification.name))])),
                            .init("params", notification.paramsSchema),
                        ])),
                    .init("required", ["method", "params"]),
                    .init("additionalProperties", false),
                ]))
        }
        let output: JSONValue = .object([
            .init("type", "object"),
            .init(
                "properties",
                .object([
                    .init(
                        "notifications",
                        .object([
                            .init("type", "array"),
                            .init("items", .object([.init("anyOf", .array(branches))])),
                            .init("description", "The pushes queued since the last take, oldest first."),
                        ])),
                    .init(
                        "dropped",
                        .object([
                            .init("type", "integer"), .init("minimum", 0),
                            .init(
                                "description",
                                .string(
                                    "Pushes dropped since the last take because the queue was full (\(MCPPushQueue.capacity) at most)."
                                )),
                        ])),
                ])),
            .init("required", ["notifications", "dropped"]),
            .init("additionalProperties", false),
        ])
        let names = notifications.map(\.name).joined(separator: ", ")
        return .object([
            .init("name", .string(name)),
            .init("title", "session.takeNotifications"),
            .init(
                "description",
                .string(
                    """
                    Takes the pushes (SDK callbacks) queued for this MCP session, oldest first, and empties the queue. \
                    With waitMs, waits for the first push when none is queued. Clients that opted in to logging \
                    (logging/setLevel info or lower) also receive each push as a notifications/message. \
                    The pushes: \(names).
                    """)),
            .init("inputSchema", inputSchema),
            .init("outputSchema", MCPToolSchema.standalone(output, definitions: definitions)),
            .init("annotations", ["readOnlyHint": false, "destructiveHint": false, "idempotentHint": false]),
        ])
    }
}
