import PayRPCJSON
import Testing

/// A tape reused line after line keeps its entry buffer, but not the large one a big document
/// needed: the parser reserves up to about ten bytes of entries per input byte.
@Suite struct JSONTapeCapacityTests {
    @Test func aLargeDocumentsBufferIsGivenBackAtTheNextParse() throws {
        let tape = JSONTape()
        // One long string: few entries, but the parser reserves for the most the bytes could hold.
        let large = Array(#"{"note":""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 400_000) + Array(#""}"#.utf8)
        try large.withUnsafeBytes { bytes in
            try tape.parse(bytes)
            #expect(tape.root.member("note")?.string?.utf8.count == 400_000)
        }
        #expect(tape.entryCapacity > 65_536)
        let small = Array(#"{"jsonrpc":"2.0","id":1,"method":"rpc.health"}"#.utf8)
        try small.withUnsafeBytes { bytes in
            try tape.parse(bytes)
            #expect(tape.root.member("method")?.string == "rpc.health")
        }
        #expect(tape.entryCapacity <= 65_536)
    }

    @Test func aSmallBufferIsKeptFromParseToParse() throws {
        let tape = JSONTape()
        let line = Array(#"[1,2,3,{"a":[true,false,null]}]"#.utf8)
        try line.withUnsafeBytes { try tape.parse($0) }
        let capacity = tape.entryCapacity
        for _ in 0..<3 { try line.withUnsafeBytes { try tape.parse($0) } }
        #expect(tape.entryCapacity == capacity)
    }
}
