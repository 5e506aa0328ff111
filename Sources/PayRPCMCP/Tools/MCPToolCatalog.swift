import PayRPCCore
import PayRPCJSON

/// Every MCP tool of a server, generated from its router: one per method (the same descriptors
/// `rpc.discover` publishes) plus `session_takeNotifications`, sorted by name.
///
/// `$/cancelRequest` has no tool: MCP cancels with `notifications/cancelled`. Built once at
/// start-up; `Schemas/mcp-tools.json` is its ``document``, written by `payrpc schemas` and
/// checked for drift like the rest of `Schemas/`.
public struct MCPToolCatalog: Sendable {
    /// The tools, sorted by name.
    let tools: [MCPTool]
    private let indexByName: [String: Int]
    /// The `tools` array of `tools/list`, as JSON: every tool, and the tools outside sandbox mode.
    let listedInSandbox: [UInt8]
    let listedOutsideSandbox: [UInt8]

    /// - Throws: ``RouterBuildError`` when a method has no valid tool name, two methods get the
    ///   same one, or a method's params are not an object.
    public init(router: Router) throws(RouterBuildError) {
        var tools: [MCPTool] = [MCPTool(notifications: router.notifications)]
        for entry in router.entries where entry.descriptor.name != CancelRequest.name {
            tools.append(try MCPTool(entry: entry))
        }
        tools.sort { $0.name < $1.name }
        var indexByName: [String: Int] = [:]
        for (index, tool) in tools.enumerated() {
            if indexByName[tool.name] != nil {
                throw RouterBuildError(message: "two methods have the MCP tool name \(tool.name)")
            }
            indexByName[tool.name] = index
        }
        self.tools = tools
        self.indexByName = indexByName
        self.listedInSandbox = Self.encode(tools)
        self.listedOutsideSandbox = Self.encode(tools.filter { !$0.sandboxOnly })
    }

    /// The tool named `name`.
    func tool(named name: String) -> MCPTool? {
        indexByName[name].map { tools[$0] }
    }

    /// `{"tools": [...]}` as `tools/list` answers it in sandbox mode: `Schemas/mcp-tools.json`.
    public var document: JSONValue {
        .object([.init("tools", .array(tools.map(\.definition)))])
    }

    private static func encode(_ tools: [MCPTool]) -> [UInt8] {
        var writer = JSONWriter(capacity: 1 << 16)
        JSONValue.array(tools.map(\.definition)).encode(to: &writer)
        return writer.bytes
    }
}
