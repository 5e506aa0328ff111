import PayRPCCore
import PayRPCJSON

/// Which era of the protocol a request is answered in.
enum MCPEra: Sendable, Equatable {
    /// The handshake era (2025-06-18, 2025-11-25): state set up by `initialize`.
    case handshake
    /// The stateless era (2026-07-28): each request carries its version and the client's
    /// capabilities in `_meta`; results carry `resultType` and the server's identity.
    case stateless
}

/// The MCP methods payrpc answers, classified once per request.
enum MCPMethod: Equatable {
    case initialize, ping, discover
    case toolsList, toolsCall
    case resourcesList, resourcesRead, resourceTemplatesList
    case setLogLevel
    case unknown

    init(_ name: JSONElement) {
        if name.stringEquals("tools/call") {
            self = .toolsCall
        } else if name.stringEquals("tools/list") {
            self = .toolsList
        } else if name.stringEquals("ping") {
            self = .ping
        } else if name.stringEquals("initialize") {
            self = .initialize
        } else if name.stringEquals("server/discover") {
            self = .discover
        } else if name.stringEquals("resources/list") {
            self = .resourcesList
        } else if name.stringEquals("resources/read") {
            self = .resourcesRead
        } else if name.stringEquals("resources/templates/list") {
            self = .resourceTemplatesList
        } else if name.stringEquals("logging/setLevel") {
            self = .setLogLevel
        } else {
            self = .unknown
        }
    }
}
