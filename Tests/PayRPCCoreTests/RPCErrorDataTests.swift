import PayRPCCore
import PayRPCJSON
import Testing

/// A domain error's `data` written by its codec goes to the wire as written.
@Suite struct RPCErrorDataTests {
    @Test("encoded data is written verbatim, read back as a value, and equal to the same data as a value")
    func encodedData() throws {
        let bytes = Array(#"{"type":"network","title":"No connection"}"#.utf8)
        let encoded = RPCError(.init(-33006), "Network error", encodedData: bytes)
        var writer = JSONWriter()
        encoded.encode(to: &writer)
        #expect(writer.text == #"{"code":-33006,"message":"Network error","data":{"type":"network","title":"No connection"}}"#)
        #expect(encoded.data?["title"] == "No connection")
        let value = RPCError(.init(-33006), "Network error", data: ["type": "network", "title": "No connection"])
        #expect(encoded == value)
        #expect(encoded != RPCError(.init(-33006), "Network error", data: ["type": "network"]))
        var changed = encoded
        changed.data = ["type": "general"]
        #expect(changed.data?["type"] == "general")
        var none = encoded
        none.data = nil
        var plain = JSONWriter()
        none.encode(to: &plain)
        #expect(plain.text == #"{"code":-33006,"message":"Network error"}"#)
    }
}
