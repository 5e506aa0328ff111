import CLibUV
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Accepts connections on one endpoint: a listening `uv_tcp_t` or `uv_pipe_t` (Unix socket).
///
/// The handle keeps the listener alive (`handle->data`) until its close callback. The socket file
/// of a Unix listener is removed when the listener closes, if it is still the one it created.
final class Listener {
    let endpoint: Endpoint
    let kind: Kind
    /// What `boundAddresses` shows: `host:port` with the real port, or the socket path.
    let boundAddress: String
    fileprivate weak var server: LibUVServer?
    private let handle: UnsafeMutableRawPointer
    private let socketInode: UInt
    private var isClosed = false

    enum Kind { case tcp, unix }

    private init(endpoint: Endpoint, kind: Kind, handle: UnsafeMutableRawPointer, boundAddress: String, socketInode: UInt) {
        self.endpoint = endpoint
        self.kind = kind
        self.handle = handle
        self.boundAddress = boundAddress
        self.socketInode = socketInode
    }

    /// The listening stream.
    var stream: UnsafeMutablePointer<uv_stream_t> { payrpc_stream(handle) }

    /// Binds and listens on a TCP address.
    static func tcp(host: String, port: Int, loop: LibUVEventLoop, server: LibUVServer, logger: Logger) throws(TransportError)
        -> Listener
    {
        let endpoint = Endpoint.tcp(host: host, port: port)
        var address = try resolve(host: host, port: port, loop: loop)
        let handle = malloc(uv_handle_size(UV_TCP))!
        uv_tcp_init(loop.uvLoop, payrpc_tcp(handle))
        do throws(TransportError) {
            try withUnsafePointer(to: &address) { (pointer) throws(TransportError) in
                try TransportError.check(uv_tcp_bind(payrpc_tcp(handle), payrpc_sockaddr(pointer), 0), "bind \(endpoint)")
            }
            try TransportError.check(uv_listen(payrpc_stream(handle), 511, connectionCallback), "listen \(endpoint)")
        } catch {
            uv_close(payrpc_handle(handle), freeHandle)
            throw error
        }
        let bound = socketName(of: handle) ?? endpoint.description
        if !isLoopback(address) {
            logger.warning(
                "listening on a non-loopback address: anyone who can reach it can call the gateway",
                metadata: ["address": "\(bound)"])
        }
        let listener = Listener(endpoint: endpoint, kind: .tcp, handle: handle, boundAddress: bound, socketInode: 0)
        listener.server = server
        payrpc_set_handle_data(handle, Unmanaged.passRetained(listener).toOpaque())
        return listener
    }

    /// Creates a Unix socket at `path` (mode 0600) and listens on it. A stale socket file (nobody
    /// accepts on it) is replaced; a live one is an error, and so is a path that is not a socket.
    static func unix(path: String, loop: LibUVEventLoop, server: LibUVServer, logger: Logger) throws(TransportError) -> Listener {
        let endpoint = Endpoint.unix(path: path)
        let operation = "listen on unix socket \(path)"
        guard !path.isEmpty else {
            throw TransportError(operation: operation, code: UVCode.invalidArgument, message: "the path is empty")
        }
        guard path.utf8.count < payrpc_unix_path_max() else {
            throw TransportError(
                operation: operation, code: UVCode.nameTooLong,
                message: "the path is longer than \(payrpc_unix_path_max() - 1) bytes")
        }
        switch payrpc_path_is_socket(path) {
        case 1:
            let probe = payrpc_unix_probe(path)
            if probe == 0 {
                throw TransportError(
                    operation: operation, code: UVCode.addressInUse, message: "another server is listening on it")
            } else if probe == UVCode.connectionRefused {
                logger.info("replacing a stale unix socket", metadata: ["path": "\(path)"])
                unlink(path)
            } else if probe != -ENOENT {
                throw TransportError(operation: operation, code: probe)
            }
        case 0:
            throw TransportError(operation: operation, code: UVCode.addressInUse, message: "the path exists and is not a socket")
        default:
            break
        }
        let handle = malloc(uv_handle_size(UV_NAMED_PIPE))!
        uv_pipe_init(loop.uvLoop, payrpc_pipe(handle), 0)
        do throws(TransportError) {
            try TransportError.check(uv_pipe_bind(payrpc_pipe(handle), path), operation)
            // Before listen, nobody can connect yet: restrict the file first.
            if chmod(path, 0o600) != 0 {
                let code = -errno
                unlink(path)
                throw TransportError(operation: "chmod 0600 \(path)", code: code)
            }
            let listenCode = uv_listen(payrpc_stream(handle), 511, connectionCallback)
            if listenCode < 0 {
                unlink(path)
                throw TransportError(operation: operation, code: listenCode)
            }
        } catch {
            uv_close(payrpc_handle(handle), freeHandle)
            throw error
        }
        let listener = Listener(
            endpoint: endpoint, kind: .unix, handle: handle, boundAddress: path,
            socketInode: UInt(payrpc_path_inode(path)))
        listener.server = server
        payrpc_set_handle_data(handle, Unmanaged.passRetained(listener).toOpaque())
        return listener
    }

    /// Stops listening; removes the socket file of a Unix listener. Idempotent.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        if kind == .unix, socketInode != 0, UInt(payrpc_path_inode(boundAddress)) == socketInode {
            unlink(boundAddress)
        }
        uv_close(payrpc_handle(handle), listenerClosed)
    }

    // MARK: - Addresses

    private static func resolve(host: String, port: Int, loop: LibUVEventLoop) throws(TransportError) -> sockaddr_storage {
        let operation = "resolve \(Endpoint.tcp(host: host, port: port))"
        guard (0...65535).contains(port) else {
            throw TransportError(operation: operation, code: UVCode.invalidArgument, message: "the port must be from 0 to 65535")
        }
        var storage = sockaddr_storage()
        let done: Bool = withUnsafeMutableBytes(of: &storage) { raw in
            let v4 = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
            if uv_ip4_addr(host, Int32(port), v4) == 0 { return true }
            let v6 = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
            return uv_ip6_addr(host, Int32(port), v6) == 0
        }
        if done { return storage }
        // A host name: resolve it synchronously (no callback), once, at start-up.
        var request = uv_getaddrinfo_t()
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        let code = uv_getaddrinfo(loop.uvLoop, &request, nil, host, String(port), &hints)
        guard code == 0, let first = request.addrinfo else {
            throw TransportError(operation: operation, code: code < 0 ? code : UVCode.invalidArgument)
        }
        defer { uv_freeaddrinfo(request.addrinfo) }
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.baseAddress!.copyMemory(from: first.pointee.ai_addr, byteCount: Int(first.pointee.ai_addrlen))
        }
        return storage
    }

    /// Whether an address is 127.0.0.0/8 or ::1 (binding anything else logs a warning).
    static func isLoopback(_ storage: sockaddr_storage) -> Bool {
        var copy = storage
        return withUnsafeBytes(of: &copy) { raw in
            switch Int32(storage.ss_family) {
            case AF_INET:
                let address = raw.load(as: sockaddr_in.self)
                return UInt32(bigEndian: address.sin_addr.s_addr) >> 24 == 127
            case AF_INET6:
                let address = raw.load(as: sockaddr_in6.self)
                return withUnsafeBytes(of: address.sin6_addr) { bytes in
                    bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
                }
            default:
                return false
            }
        }
    }

    /// `host:port` of a bound TCP handle (`[host]:port` for IPv6).
    static func socketName(of handle: UnsafeMutableRawPointer) -> String? {
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let code = withUnsafeMutableBytes(of: &storage) { raw in
            uv_tcp_getsockname(payrpc_tcp(handle), raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        guard code == 0 else { return nil }
        return format(storage)
    }

    /// `host:port` of the peer of a connected TCP handle.
    static func peerName(of handle: UnsafeMutableRawPointer) -> String? {
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let code = withUnsafeMutableBytes(of: &storage) { raw in
            uv_tcp_getpeername(payrpc_tcp(handle), raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        guard code == 0 else { return nil }
        return format(storage)
    }

    private static func format(_ storage: sockaddr_storage) -> String? {
        var copy = storage
        return withUnsafeMutableBytes(of: &copy) { raw -> String? in
            var name = [CChar](repeating: 0, count: 64)
            switch Int32(storage.ss_family) {
            case AF_INET:
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                guard uv_ip4_name(address, &name, name.count) == 0 else { return nil }
                return "\(cString(name)):\(UInt16(bigEndian: address.pointee.sin_port))"
            case AF_INET6:
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                guard uv_ip6_name(address, &name, name.count) == 0 else { return nil }
                return "[\(cString(name))]:\(UInt16(bigEndian: address.pointee.sin6_port))"
            default:
                return nil
            }
        }
    }
}

/// The text of a NUL-terminated buffer.
private func cString(_ buffer: [CChar]) -> String {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}

private func connectionCallback(_ stream: UnsafeMutablePointer<uv_stream_t>?, _ status: Int32) {
    guard let stream else { return }
    let listener = Unmanaged<Listener>.fromOpaque(payrpc_handle_data(stream)).takeUnretainedValue()
    listener.server?.accept(on: listener, status: status)
}

private func listenerClosed(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
    guard let handle else { return }
    Unmanaged<Listener>.fromOpaque(payrpc_handle_data(handle)).release()
    free(handle)
}

/// Close callback of a handle that has no owner object (a rejected client, a failed listener).
func freeHandle(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
    free(handle)
}
