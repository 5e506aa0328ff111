/// Where a ``LibUVServer`` listens: a TCP address or a Unix socket path.
public enum Endpoint: Sendable, Hashable, CustomStringConvertible {
    /// A TCP address: an IPv4 or IPv6 literal, or a host name resolved at bind time. Port 0
    /// lets the system choose (see ``LibUVServer/boundAddresses``).
    case tcp(host: String, port: Int)
    /// A Unix domain socket at `path`, created with mode 0600.
    case unix(path: String)

    /// Parses `host:port`, `[ipv6]:port` or a bare port (host 127.0.0.1) as TCP, and
    /// `unix:PATH` or anything starting with `/` or `.` as a Unix socket path.
    ///
    /// - Throws: ``TransportError`` (`UV_EINVAL`) naming what is wrong with the text.
    public static func parse(_ text: String) throws(TransportError) -> Endpoint {
        func invalid(_ why: String) -> TransportError {
            TransportError(operation: "parse endpoint \"\(text)\"", code: UVCode.invalidArgument, message: why)
        }
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw invalid("the unix socket path is empty") }
            return .unix(path: path)
        }
        if text.hasPrefix("/") || text.hasPrefix(".") { return .unix(path: text) }
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw invalid("missing ']' after the IPv6 address") }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw invalid("expected ':port' after ']'") }
            portText = rest.dropFirst()
            guard !host.isEmpty else { throw invalid("the IPv6 address is empty") }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            guard !host.contains(":") else { throw invalid("an IPv6 address must be written in brackets: [::1]:7070") }
            guard !host.isEmpty else { throw invalid("the host is empty") }
        } else {
            host = "127.0.0.1"
            portText = Substring(text)
        }
        guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
            let port = Int(portText), port <= 65535
        else { throw invalid("the port must be a number from 0 to 65535") }
        return .tcp(host: String(host), port: port)
    }

    /// `host:port` (`[host]:port` for IPv6) or `unix:path`.
    public var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): "unix:\(path)"
        }
    }
}
