/// Finds a method by the raw UTF-8 bytes of its name without making a `String`.
///
/// A Swift `Dictionary<String, _>` lookup would need a `String` per request (a heap allocation
/// for names over 15 bytes, such as `tatra.executePayment`); this open-addressing table hashes
/// and compares the bytes in place. Built once at start-up, then read-only.
///
/// Every request pays one lookup, so it is kept short (an FNV-1a byte loop over `[[UInt8]?]`
/// keys, a retain per probed key and a `memcmp` call were a large part of `rpc.health`): the
/// name is hashed eight bytes at a time, each slot keeps its name's whole hash
/// and length beside where its bytes are in one shared buffer, and a probe compares those before
/// it compares the bytes (for the slot that is almost surely the name's). The value sits in its
/// slot, and the bytes are compared eight at a time in place: a second array of values and a
/// `memcmp` call cost every request more (docs/benchmarks.md).
struct MethodTable<Value: Sendable>: Sendable {
    /// One name: its hash, its bytes' place in ``names`` and its value; `count` -1 is an empty slot.
    private struct Slot {
        var hash: UInt64 = 0
        var start: Int32 = 0
        var count: Int32 = -1
        var value: Value?
    }

    private var slots: [Slot]
    /// Every name's bytes, one after the other.
    private var names: [UInt8]
    private let mask: Int

    init(_ entries: [(String, Value)]) {
        var capacity = 16
        while capacity < entries.count * 3 { capacity <<= 1 }
        slots = Array(repeating: Slot(), count: capacity)
        names = []
        mask = capacity - 1
        for (name, value) in entries {
            let bytes = Array(name.utf8)
            let hash = bytes.withUnsafeBytes { Self.hash($0) }
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot].count >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Slot(hash: hash, start: Int32(names.count), count: Int32(bytes.count), value: value)
            names.append(contentsOf: bytes)
        }
    }

    /// A 64-bit hash of the bytes, read eight at a time (the last word overlapping the one before
    /// when the length is not a multiple of eight); each word is mixed into every bit, so that
    /// names that differ late (`tatra.executePayment`, `tatra.refundPayment`) land apart.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        guard count > 0, let base = bytes.baseAddress else { return hash }
        @inline(__always) func mix(_ word: UInt64) {
            hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
        }
        if count < 8 {
            var word: UInt64 = 0
            for index in 0..<count { word = word << 8 | UInt64(base.load(fromByteOffset: index, as: UInt8.self)) }
            mix(word)
            return hash
        }
        var offset = 0
        while offset + 8 < count {
            mix(base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        mix(base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        return hash
    }

    /// The value stored under the name spelled by `name`.
    func lookup(_ name: UnsafeRawBufferPointer) -> Value? {
        let hash = Self.hash(name)
        let count = name.count
        var slot = Int(truncatingIfNeeded: hash) & mask
        return slots.withUnsafeBufferPointer { slots in
            names.withUnsafeBytes { names in
                while true {
                    let candidate = slots[slot]
                    if candidate.count < 0 { return nil }
                    if candidate.hash == hash, Int(candidate.count) == count,
                        count == 0 || Self.equal(names.baseAddress! + Int(candidate.start), name.baseAddress!, count)
                    {
                        return candidate.value
                    }
                    slot = (slot + 1) & mask
                }
            }
        }
    }

    /// Whether the `count` (more than 0) bytes at `left` and `right` are the same: eight at a time,
    /// the last word overlapping the one before (`right`'s bytes end where the name ends), or,
    /// under eight, one by one.
    @inline(__always)
    private static func equal(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer, _ count: Int) -> Bool {
        guard count >= 8 else {
            for index in 0..<count
            where left.load(fromByteOffset: index, as: UInt8.self) != right.load(fromByteOffset: index, as: UInt8.self) {
                return false
            }
            return true
        }
        var offset = 0
        while offset + 8 < count {
            guard
                left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        return left.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            == right.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }

    /// The value stored under `name`.
    func lookup(_ name: String) -> Value? {
        var name = name
        return name.withUTF8 { lookup(UnsafeRawBufferPointer($0)) }
    }
}
