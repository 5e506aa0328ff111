import PayRPCCore
/// The syslog levels of MCP logging (`logging/setLevel`, `notifications/message`), least severe first.
enum MCPLogLevel: String, CaseIterable, Comparable {
    case debug, info, notice, warning, error, critical, alert, emergency

    /// The level pushes are sent at.
    static let push = MCPLogLevel.info

    static func < (left: MCPLogLevel, right: MCPLogLevel) -> Bool {
        allCases.firstIndex(of: left)! < allCases.firstIndex(of: right)!
    }
}
