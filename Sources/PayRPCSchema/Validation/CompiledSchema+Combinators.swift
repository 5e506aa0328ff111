import PayRPCJSON

/// `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`.
extension CompiledSchema {
    /// Every branch's own violations are reported.
    func checkAllOf(_ ids: [NodeID], _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        var valid = true
        for id in ids where !check(id, value, &run) {
            valid = false
            if !run.collect { return false }
        }
        return valid
    }

    /// One violation when no branch matches (branch details would be noise).
    func checkAnyOf(_ ids: [NodeID], _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        for id in ids where passes(id, value, &run) { return true }
        return run.fail("anyOf", "does not match any of the \(ids.count) allowed schemas (anyOf)")
    }

    func checkOneOf(_ ids: [NodeID], _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        var matched: [Int] = []
        for (position, id) in ids.enumerated() where passes(id, value, &run) {
            matched.append(position)
            if matched.count == 2 { break }
        }
        if matched.count == 1 { return true }
        if matched.isEmpty {
            return run.fail("oneOf", "does not match any of the \(ids.count) schemas of oneOf")
        }
        return run.fail("oneOf", "matches more than one schema of oneOf (at least #\(matched[0]) and #\(matched[1]))")
    }

    func checkNot(_ id: NodeID, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        !passes(id, value, &run) || run.fail("not", "must not match the schema of not")
    }

    /// `then`'s or `else`'s own violations are reported.
    func checkConditional(_ condition: NodeID, _ then: NodeID?, _ otherwise: NodeID?, _ value: JSONElement,
                          _ run: inout ValidationRun) -> Bool {
        if passes(condition, value, &run) {
            guard let then else { return true }
            return checkChild(then, value, &run, keyword: "then")
        }
        guard let otherwise else { return true }
        return checkChild(otherwise, value, &run, keyword: "else")
    }
}
