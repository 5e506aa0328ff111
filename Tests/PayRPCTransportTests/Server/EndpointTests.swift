import Testing
@testable import PayRPCTransport

@Suite("Endpoint parsing")
struct EndpointTests {
    @Test("Valid endpoints")
    func valid() throws {
        #expect(try Endpoint.parse("127.0.0.1:7070") == .tcp(host: "127.0.0.1", port: 7070))
        #expect(try Endpoint.parse("[::1]:7070") == .tcp(host: "::1", port: 7070))
        #expect(try Endpoint.parse("localhost:0") == .tcp(host: "localhost", port: 0))
        #expect(try Endpoint.parse("7070") == .tcp(host: "127.0.0.1", port: 7070))
        #expect(try Endpoint.parse("unix:/tmp/x.sock") == .unix(path: "/tmp/x.sock"))
        #expect(try Endpoint.parse("/run/payrpc.sock") == .unix(path: "/run/payrpc.sock"))
        #expect(Endpoint.tcp(host: "::1", port: 1).description == "[::1]:1")
    }

    @Test(
        "Invalid endpoints name what is wrong",
        arguments: ["", "host:", ":80", "1.2.3.4:99999", "::1:80", "[::1]80", "[]:80", "x:y", "unix:"])
    func invalid(text: String) {
        #expect(throws: TransportError.self) { try Endpoint.parse(text) }
        do {
            _ = try Endpoint.parse(text)
        } catch {
            #expect(error.code == UVCode.invalidArgument)
            #expect(error.description.contains("parse endpoint"))
        }
    }
}
