import PayRPCJSON

/// `items` (both forms), `additionalItems`, `contains`, `minItems`, `maxItems`, `uniqueItems`.
extension CompiledSchema {
    func checkItems(_ id: NodeID, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .array else { return true }
        if case .always(true) = nodes[id] { return true }
        var valid = true
        for (position, item) in value.arrayElements.enumerated() {
            run.path.append(.index(position))
            let itemValid = checkChild(id, item, &run, keyword: "items")
            run.path.removeLast()
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
            run.path.append(.index(position))
            let itemValid = checkChild(id, item, &run, keyword: keyword)
            run.path.removeLast()
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

    func checkUniqueItems(_ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .array, value.count > 1 else { return true }
        let items = Array(value.arrayElements)
        for first in items.indices {
            for second in (first + 1)..<items.count where items[first].jsonEquals(items[second]) {
                return run.fail("uniqueItems", "items #\(first) and #\(second) are equal")
            }
        }
        return true
    }
}
