/// Inputs with a documented outcome, the way payment providers publish test cards: an amount that
/// makes a payment fail, a card number the issuer declines. One shape for every service: the
/// entries of its sandbox data, looked up by a key each names (cents, an amount, a card number).
///
/// Most inputs are not magic, so a lookup first checks the key against the smallest and largest
/// magic key (two comparisons) before it hashes.
public struct MagicTable<Key: Hashable & Comparable & Sendable, Entry: Sendable>: Sendable {
    /// The entries, in the order the sandbox data lists them.
    public let entries: [Entry]
    @usableFromInline let byKey: [Key: Entry]
    @usableFromInline let bounds: ClosedRange<Key>?
    /// Keys listed more than once (the first entry of each is the one looked up).
    public let duplicateKeys: [Key]

    /// The table of `entries`, each under the key `key` gives it. Inlinable (as the table's
    /// other initialiser), so each service builds its table specialized for its key: built
    /// generically, the table's dictionary and range types were made from their mangled names at
    /// start, each first check of the key's `Hashable` and `Comparable` a scan of the binary's
    /// conformance records.
    @inlinable
    public init(_ entries: [Entry], key: (Entry) -> Key) {
        self.init(keyed: entries.map { (key($0), $0) })
    }

    /// The table of entries under keys worked out beforehand (when working a key out can fail,
    /// and the sandbox data's check has done it).
    @inlinable
    public init(keyed: [(key: Key, entry: Entry)]) {
        self.entries = keyed.map(\.entry)
        var byKey: [Key: Entry] = [:]
        var duplicates: [Key] = []
        for (key, entry) in keyed {
            if byKey[key] == nil { byKey[key] = entry } else { duplicates.append(key) }
        }
        self.byKey = byKey
        self.duplicateKeys = duplicates
        if let low = byKey.keys.min(), let high = byKey.keys.max() { bounds = low...high } else { bounds = nil }
    }

    /// The entry of `key`, or nil when `key` is not magic.
    @inlinable
    public subscript(_ key: Key) -> Entry? { entry(for: key) }

    /// The entry of `key`, or nil when `key` is not magic. Inlinable, so a service's lookup is
    /// specialized for its key (it runs on `tatra.executePayment`'s path).
    @inlinable
    public func entry(for key: Key) -> Entry? {
        guard let bounds, bounds.contains(key) else { return nil }
        return byKey[key]
    }
}
