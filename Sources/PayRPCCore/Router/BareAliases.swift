/// The naming rule's bare names, derived once for every service: a service method is also
/// reachable by the part of each of its names after the service prefix (`executePayment` for
/// `tatra.executePayment`, `getBalance` for its Android alias `tatra.getBalance`) when that part
/// belongs to no other method of any service.
///
/// Derived at start-up rather than declared, so that a service added later takes a bare name
/// away from no one silently: a part two services share is simply not a bare name (the clients
/// then use the prefixed names), and one declared explicitly by any method is left to it.
/// Built-ins (`rpc.*`, `$/...`) and sandbox helpers (`sandbox.*`) get no bare names.
enum BareAliases {
    /// The bare names to add, by canonical method name, in the order of the method's names.
    static func derive(_ descriptors: [MethodDescriptor]) -> [String: [String]] {
        var declared = Set<String>()
        var owners: [String: Set<String>] = [:]
        var candidates: [(method: String, bare: String)] = []
        for descriptor in descriptors {
            let names = [descriptor.name] + descriptor.aliases
            declared.formUnion(names)
            guard isServiceMethod(descriptor.name) else { continue }
            for name in names {
                guard let bare = bareName(of: name) else { continue }
                owners[bare, default: []].insert(descriptor.name)
                candidates.append((descriptor.name, bare))
            }
        }
        var result: [String: [String]] = [:]
        for (method, bare) in candidates where owners[bare]?.count == 1 && !declared.contains(bare) {
            if result[method]?.contains(bare) != true { result[method, default: []].append(bare) }
        }
        return result
    }

    /// Whether `name` is a method of a service (not a built-in or a sandbox helper).
    static func isServiceMethod(_ name: String) -> Bool {
        !name.hasPrefix("rpc.") && !name.hasPrefix("sandbox.") && !name.hasPrefix("$/") && name.contains(".")
    }

    /// `tail` of `service.tail` (one prefix, a tail without dots); nil for any other shape.
    ///
    /// A name in ASCII (every declared one) is read as bytes: splitting every declared name into
    /// `Character`s was a visible part of a start. Any other goes by `Character`s, where a
    /// "." that a combining mark follows is no separator.
    static func bareName(of name: String) -> String? {
        let bytes = name.utf8
        if bytes.allSatisfy({ $0 < 0x80 }) {
            guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")), dot != bytes.startIndex else { return nil }
            let tail = bytes.index(after: dot)
            guard tail != bytes.endIndex, !bytes[tail...].contains(UInt8(ascii: ".")) else { return nil }
            return String(name[tail...])
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return String(parts[1])
    }
}
