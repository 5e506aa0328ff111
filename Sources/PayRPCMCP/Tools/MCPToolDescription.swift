import PayRPCCore
import PayRPCJSON

/// What a tool tells a model and a host about its method, from the method's declaration: the
/// description (the doc comment, with its magic inputs, then the errors and pushes it may cause)
/// and the annotations (read-only, destructive) a host shows before it lets a model call it.
enum MCPToolDescription {
    /// The tool's `description`.
    static func text(_ descriptor: MethodDescriptor) -> String {
        var parts: [String] = []
        parts.append(descriptor.sandboxOnly ? "Sandbox only. \(descriptor.summary)" : descriptor.summary)
        if !descriptor.documentation.isEmpty { parts.append(descriptor.documentation) }
        if !descriptor.errors.isEmpty {
            let errors = descriptor.errors.map { "\($0.code) \($0.message)" }.joined(separator: "; ")
            parts.append("Errors (a tool result with isError, structuredContent {code, message, data}): \(errors).")
        }
        if !descriptor.notifications.isEmpty {
            parts.append(
                "Pushes \(descriptor.notifications.joined(separator: ", ")): read them with \(MCPNotificationsTool.name).")
        }
        parts.append("JSON-RPC method: \(descriptor.name).")
        return parts.joined(separator: "\n\n")
    }

    /// The tool's `annotations`: `readOnlyHint` from `x-mutates`; a mutating tool is destructive
    /// only when its method throws state away (`x-destructive`: resets, deletions), and is not
    /// assumed idempotent.
    static func annotations(_ descriptor: MethodDescriptor) -> JSONValue {
        guard descriptor.mutates else { return ["readOnlyHint": true] }
        return .object([
            .init("readOnlyHint", false),
            .init("destructiveHint", .bool(descriptor.destructive)),
            .init("idempotentHint", false),
        ])
    }

    /// The tool's `_meta`: the JSON-RPC method it calls, and its sandbox-only mark.
    static func meta(_ descriptor: MethodDescriptor) -> JSONValue {
        var members: [JSONValue.Member] = [.init("payrpc/method", .string(descriptor.name))]
        if descriptor.sandboxOnly { members.append(.init("payrpc/sandboxOnly", true)) }
        if !descriptor.notifications.isEmpty {
            members.append(.init("payrpc/notifications", .array(descriptor.notifications.map { .string($0) })))
        }
        return .object(members)
    }
}
