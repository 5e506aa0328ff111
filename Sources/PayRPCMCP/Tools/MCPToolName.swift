import PayRPCCore
/// A method's name as an MCP tool's: `<service>_<method>`, the dots as underscores
/// (`tatra.executePayment` → `tatra_executePayment`, `sandbox.clock.advance` →
/// `sandbox_clock_advance`), since hosts such as Claude Desktop, Codex and Copilot CLI accept only
/// `^[A-Za-z0-9_-]{1,64}$`.
enum MCPToolName {
    /// The tool name of `method`.
    /// - Throws: ``RouterBuildError`` when the result breaks the hosts' pattern.
    static func make(method: String) throws(RouterBuildError) -> String {
        let name = String(method.map { $0 == "." ? "_" : $0 })
        guard isValid(name) else {
            throw RouterBuildError(message: "\(method) has no MCP tool name: \(name) breaks ^[A-Za-z0-9_-]{1,64}$")
        }
        return name
    }

    /// Whether `name` matches `^[A-Za-z0-9_-]{1,64}$`.
    static func isValid(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    return true
                default:
                    return false
                }
            }
    }
}
