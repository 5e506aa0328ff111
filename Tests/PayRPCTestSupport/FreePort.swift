import Foundation

/// A TCP port for a test's server: the kernel's pick of a free one, for the throw-away
/// PostgreSQL cluster, the HAProxy balancer's front ends and any other program a test starts
/// that must be told its port before it listens.
public enum FreePort {
    /// A TCP port on 127.0.0.1 that nothing listens on now (another program may take it before
    /// the caller binds it: a caller that can, tries another when binding fails).
    public static func loopback() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
