import CLibUV
import Testing
@testable import PayRPCTransport

#if canImport(Glibc)
import Glibc
#endif

@Suite("Loopback detection")
struct LoopbackTests {
    /// An address value only: nothing is bound or sent.
    func address(_ host: String) -> sockaddr_storage {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            if uv_ip4_addr(host, 80, raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)) != 0 {
                _ = uv_ip6_addr(host, 80, raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self))
            }
        }
        return storage
    }

    @Test("Loopback addresses", arguments: ["127.0.0.1", "127.1.2.3", "::1"])
    func loopback(host: String) {
        #expect(Listener.isLoopback(address(host)))
    }

    @Test("Addresses that are not loopback warn", arguments: ["0.0.0.0", "10.1.2.3", "::", "fe80::1", "128.0.0.1"])
    func notLoopback(host: String) {
        #expect(!Listener.isLoopback(address(host)))
    }
}
