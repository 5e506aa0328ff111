import PayRPCCore
import PayRPCJSON

/// The era of one MCP connection: decided by its first request (`initialize` opens the handshake
/// era; a request whose `_meta` carries `io.modelcontextprotocol/protocolVersion` opens the
/// stateless one) and kept, as the reference SDK does. A value-type state machine: each request
/// goes in, a verdict comes out.
struct MCPEraMachine {
    enum State: Equatable {
        /// No request has settled the era yet.
        case opening
        /// `initialize` settled on this version.
        case handshake(version: String)
        /// Stateless requests; each carries its version.
        case stateless
    }

    /// What a request's `_meta` says about its era.
    enum Envelope: Equatable {
        /// No `io.modelcontextprotocol/protocolVersion` key.
        case none
        /// The key is there, with its value when it is a string, and whether the client's
        /// capabilities are there too.
        case stateless(version: String?, hasCapabilities: Bool)
    }

    /// How to go on with a request.
    enum Verdict: Equatable {
        /// Answer it in this era.
        case answer(MCPEra)
        /// Refuse it with this error.
        case refuse(RPCError)
    }

    private(set) var state: State = .opening

    /// `initialize`: settles the handshake era on the negotiated version.
    mutating func initialize(requested: String?) -> Result<String, RPCError> {
        switch state {
        case .opening:
            let version = MCPProtocolVersion.negotiated(requested: requested)
            state = .handshake(version: version)
            return .success(version)
        case .handshake:
            return .failure(.invalidRequest("initialize was already called on this connection"))
        case .stateless:
            var data: [JSONValue.Member] = [.init("supported", .array(MCPProtocolVersion.stateless.map { .string($0) }))]
            if let requested { data.append(.init("requested", .string(requested))) }
            return .failure(
                RPCError(
                    .unsupportedProtocolVersion,
                    "Unsupported protocol version: this connection speaks 2026-07-28, which has no initialize handshake",
                    data: .object(data)))
        }
    }

    /// Any other request (`discover` for `server/discover`, which exists only in the stateless era).
    mutating func request(discover: Bool, envelope: Envelope) -> Verdict {
        switch (state, envelope) {
        case (.handshake, .stateless):
            return .refuse(
                .invalidRequest(
                    "this connection speaks the handshake era (initialize); requests carrying \(MCPProtocolVersion.versionKey) are not accepted on it"
                ))
        case (_, .stateless(nil, _)):
            return .refuse(envelopeError("\(MCPProtocolVersion.versionKey) must be a string"))
        case (_, .stateless(_, false)):
            return .refuse(envelopeError("params._meta is missing \(MCPProtocolVersion.capabilitiesKey)"))
        case (_, .stateless(.some(let version), true)):
            guard MCPProtocolVersion.stateless.contains(version) else {
                return .refuse(
                    RPCError(
                        .unsupportedProtocolVersion, "Unsupported protocol version",
                        data: .object([
                            .init("supported", .array(MCPProtocolVersion.stateless.map { .string($0) })),
                            .init("requested", .string(version)),
                        ])))
            }
            state = .stateless
            return .answer(.stateless)
        case (.stateless, .none):
            return .refuse(missingEnvelope)
        case (_, .none) where discover:
            return .refuse(missingEnvelope)
        case (.handshake, .none):
            return .answer(.handshake)
        case (.opening, .none):
            return .refuse(
                .invalidRequest(
                    "the connection is not initialized: send initialize (protocol 2025-06-18 or 2025-11-25), or carry \(MCPProtocolVersion.versionKey) 2026-07-28 in params._meta"
                ))
        }
    }

    /// `ping`: answered before the era is settled too.
    mutating func ping(envelope: Envelope) -> Verdict {
        if state == .opening, envelope == .none { return .answer(.handshake) }
        return request(discover: false, envelope: envelope)
    }

    private var missingEnvelope: RPCError {
        envelopeError("params._meta must carry \(MCPProtocolVersion.versionKey) and \(MCPProtocolVersion.capabilitiesKey)")
    }

    private func envelopeError(_ message: String) -> RPCError {
        RPCError(.invalidParams, "Invalid params", data: ["detail": .string(message)])
    }
}

extension RPCError.Code {
    /// MCP: the request's protocol version is one the server does not speak; `data.supported`
    /// lists those it does.
    static let unsupportedProtocolVersion = RPCError.Code(-32022)
}
