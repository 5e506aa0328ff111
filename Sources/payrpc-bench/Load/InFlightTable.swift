/// The requests of one connection that await their response: id → time sent.
///
/// A power-of-two ring indexed by `id & mask`. Ids need not be consecutive: when the next id's slot is
/// still taken (a response is overdue), the table skips to the next free slot, so a late response never
/// collides with a newer request.
struct InFlightTable {
    private var ids: [UInt64]
    private var sentAt: [UInt64]
    private let mask: UInt64
    private var nextID: UInt64 = 1
    /// How many requests await a response.
    private(set) var count = 0

    /// A table for at least `capacity` outstanding requests (rounded up to a power of two, doubled for
    /// slack).
    init(capacity: Int) {
        var size = 64
        while size < capacity * 2 { size <<= 1 }
        ids = [UInt64](repeating: 0, count: size)
        sentAt = [UInt64](repeating: 0, count: size)
        mask = UInt64(size - 1)
    }

    /// Registers a request sent at `time` and returns its id; nil when every slot is taken.
    @inline(__always)
    mutating func issue(at time: UInt64) -> UInt64? {
        guard count < ids.count else { return nil }
        while true {
            let id = nextID
            nextID &+= 1
            let slot = Int(id & mask)
            if ids[slot] == 0 {
                ids[slot] = id
                sentAt[slot] = time
                count += 1
                return id
            }
        }
    }

    /// Removes the request `id` and returns the time it was sent; nil when no such request awaits.
    @inline(__always)
    mutating func complete(_ id: UInt64) -> UInt64? {
        let slot = Int(id & mask)
        guard id != 0, ids[slot] == id else { return nil }
        ids[slot] = 0
        count -= 1
        return sentAt[slot]
    }
}
