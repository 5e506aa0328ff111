import PayRPCJSON

/// `items` (both forms), `additionalItems`, `contains`, `minItems`, `maxItems`, `uniqueItems`.
extension CompiledSchema {
    func checkItems(_ id: NodeID, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .array else { return true }
        if case .always(true) = nodes[id] { return true }
        var valid = true
        for (position, item) in value.arrayElements.enumerated() {
            let entered = run.enter(.index(position))
            let itemValid = checkChild(id, item, &run, keyword: "items")
            run.leave(entered)
            if !itemValid {
                valid = false
                if !run.collect { return false }
            }
        }
        return valid
    }

    func checkTupleItems(_ ids: [NodeID], _ additional: NodeID?, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .array else { return true }
        var valid = true
        for (position, item) in value.arrayElements.enumerated() {
            let id: NodeID
            let keyword: String
            if position < ids.count {
                id = ids[position]
                keyword = "items"
            } else if let additional {
                id = additional
                keyword = "additionalItems"
            } else {
                break
            }
            let entered = run.enter(.index(position))
            let itemValid = checkChild(id, item, &run, keyword: keyword)
            run.leave(entered)
            if !itemValid {
                valid = false
                if !run.collect { return false }
            }
        }
        return valid
    }

    func checkContains(_ id: NodeID, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .array else { return true }
        for item in value.arrayElements where passes(id, item, &run) { return true }
        return run.fail("contains", "no item matches the contains schema")
    }

    func checkItemCount(minimum: Int, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .array else { return true }
        return value.count >= minimum || run.fail("minItems", "must have at least \(minimum) item\(minimum == 1 ? "" : "s")")
    }

    func checkItemCount(maximum: Int, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .array else { return true }
        return value.count <= maximum || run.fail("maxItems", "must have at most \(maximum) item\(maximum == 1 ? "" : "s")")
    }

    /// Pairwise for short arrays; for longer ones items are bucketed by a structural hash
    /// first, so a large array costs about linear time rather than quadratic.
    func checkUniqueItems(_ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .array, value.count > 1 else { return true }
        let items = Array(value.arrayElements)
        if items.count <= 16 {
            for first in items.indices {
                for second in (first + 1)..<items.count where items[first].jsonEquals(items[second]) {
                    return run.fail("uniqueItems", "items #\(first) and #\(second) are equal")
                }
            }
            return true
        }
        var buckets: [Int: [Int]] = [:]
        for (position, item) in items.enumerated() {
            let hash = Self.structuralHash(item)
            if let earlier = buckets[hash]?.first(where: { items[$0].jsonEquals(item) }) {
                return run.fail("uniqueItems", "items #\(earlier) and #\(position) are equal")
            }
            buckets[hash, default: []].append(position)
        }
        return true
    }

    /// A hash consistent with `jsonEquals`: numbers by their `Double` value, strings decoded,
    /// object members in any order.
    static func structuralHash(_ value: JSONElement) -> Int {
        var hasher = Hasher()
        hasher.combine(value.kind.rawValue)
        switch value.kind {
        case .null: break
        case .bool: hasher.combine(value.bool)
        case .number: hasher.combine(NumberText.plainInteger(value).map { Double($0) } ?? value.double ?? 0)
        case .string: hasher.combine(value.string)
        case .array:
            for item in value.arrayElements { hasher.combine(structuralHash(item)) }
        case .object:
            var sum = 0
            for (name, member) in value.objectMembers {
                var pair = Hasher()
                pair.combine(name.string)
                pair.combine(structuralHash(member))
                sum = sum &+ pair.finalize()
            }
            hasher.combine(sum)
        }
        return hasher.finalize()
    }
}
