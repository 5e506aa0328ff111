/// Finds a method by the raw UTF-8 bytes of its name without making a `String`.
///
/// A Swift `Dictionary<String, _>` lookup would need a `String` per request (a heap allocation
/// for names over 15 bytes, such as `tatra.executePayment`); this open-addressing table hashes
/// and compares the bytes in place. Built once at start-up, then read-only.
struct MethodTable<Value: Sendable>: Sendable {
    private var keys: [[UInt8]?]
    private var values: [Value?]
    private let mask: Int

    init(_ entries: [(String, Value)]) {
        var capacity = 16
        while capacity < entries.count * 3 { capacity <<= 1 }
        keys = Array(repeating: nil, count: capacity)
        values = Array(repeating: nil, count: capacity)
        mask = capacity - 1
        for (name, value) in entries {
            let bytes = Array(name.utf8)
            var slot = bytes.withUnsafeBytes { Self.hash($0) } & mask
            while keys[slot] != nil { slot = (slot + 1) & mask }
            keys[slot] = bytes
            values[slot] = value
        }
    }

    /// FNV-1a over the bytes.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }

    /// The value stored under the name spelled by `name`.
    func lookup(_ name: UnsafeRawBufferPointer) -> Value? {
        var slot = Self.hash(name) & mask
        while let key = keys[slot] {
            let equal = key.withUnsafeBytes { stored in
                stored.count == name.count && (name.count == 0 || memcmp(stored.baseAddress!, name.baseAddress!, name.count) == 0)
            }
            if equal { return values[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// The value stored under `name`.
    func lookup(_ name: String) -> Value? {
        var name = name
        return name.withUTF8 { lookup(UnsafeRawBufferPointer($0)) }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
