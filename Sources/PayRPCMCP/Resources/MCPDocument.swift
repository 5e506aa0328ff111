import PayRPCCore
/// A text an MCP server offers as a resource besides the schemas: a service's guide
/// (`docs/<service>.md`), which the gateway embeds when it is built.
public struct MCPDocument: Sendable {
    /// The service the document describes (`tatra`): the resource is `payrpc://docs/<name>.md`.
    public let name: String
    /// The Markdown text.
    public let text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}
