import Testing

@testable import PayRPCCore

/// The method table against a `Dictionary` of the same names: every name found, every other byte
/// string (one byte changed anywhere, cut short, grown by one, of every length up to 40) not.
@Suite struct MethodTableTests {
    static let names: [String] = [
        "rpc.health", "rpc.hello", "rpc.discover", "$/cancelRequest", "health", "a", "ab", "abc", "abcd",
        "abcdefg", "abcdefgh", "abcdefghi", "tatra.executePayment", "tatra.refundPayment", "tatra.executePaymenu",
        "tatra.getIban", "executePayment", "pbba.createRequest.with.a.much.longer.name", "",
    ]

    static func table() -> MethodTable<Int> {
        MethodTable(names.enumerated().map { ($0.element, $0.offset) })
    }

    static func find(_ table: MethodTable<Int>, _ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { table.lookup($0) }
    }

    @Test func namesThatAreNotThereAreNotFound() {
        let table = Self.table()
        let expected = Dictionary(uniqueKeysWithValues: Self.names.enumerated().map { (Array($0.element.utf8), $0.offset) })
        var candidates: [[UInt8]] = []
        for name in Self.names {
            let bytes = Array(name.utf8)
            for index in bytes.indices {
                for replacement: UInt8 in [0x00, 0x41, 0x7A, 0xFF, bytes[index] ^ 0x01] where replacement != bytes[index] {
                    var changed = bytes
                    changed[index] = replacement
                    candidates.append(changed)
                }
                candidates.append(Array(bytes[..<index]))
                candidates.append(Array(bytes[(index + 1)...]))
            }
            candidates.append(bytes + [0x2E])
            candidates.append([0x2E] + bytes)
        }
        for length in 0...40 {
            candidates.append(Array(repeating: 0x61, count: length))
            candidates.append((0..<length).map { UInt8(0x30 + $0 % 10) })
        }
        for candidate in candidates {
            #expect(Self.find(table, candidate) == expected[candidate], "\(String(decoding: candidate, as: UTF8.self))")
        }
    }

    @Test func everyNameIsFoundBytesAndString() {
        let table = Self.table()
        for (value, name) in Self.names.enumerated() {
            #expect(Self.find(table, Array(name.utf8)) == value, "\(name)")
            #expect(table.lookup(name) == value, "\(name)")
        }
    }

    /// A name whose bytes sit inside a larger buffer (as in a request line) is compared only
    /// within its own length.
    @Test func nameInsideALargerBufferIsComparedByItsBytesOnly() {
        let table = Self.table()
        let line = Array(#"{"method":"rpc.health","x":"rpc.healthy"}"#.utf8)
        line.withUnsafeBytes { bytes in
            #expect(table.lookup(UnsafeRawBufferPointer(rebasing: bytes[11..<21])) == 0)
            #expect(table.lookup(UnsafeRawBufferPointer(rebasing: bytes[11..<20])) == nil)
            #expect(table.lookup(UnsafeRawBufferPointer(rebasing: bytes[28..<39])) == nil)
        }
    }
}
