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

    /// When no branch matches: one member missing when each branch requires one member (see
    /// ``missingSpellings(_:)``); else the violations of the branch the value evidently meant (see
    /// ``meantBranchViolations(_:_:_:)``); else one violation (every branch's details would be noise).
    func checkAnyOf(_ ids: [NodeID], _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        for id in ids where passes(id, value, &run) { return true }
        if run.collect, let message = missingSpellings(ids) {
            return run.fail("required", message)
        }
        if let violations = meantBranchViolations(ids, value, run) {
            run.violations += violations
            return false
        }
        return run.fail("anyOf", "does not match any of the \(ids.count) allowed schemas (anyOf)")
    }

    /// `anyOf` branches that each require one member are one member under several spellings
    /// (`{"anyOf": [{"required": ["contact"]}, {"required": ["recepient"]}]}`, as the generator
    /// writes an aliased member): when none is present, the first is missing, and the others are
    /// named with whose spelling each is (``SchemaWords``):
    /// `missing required member "contact" (or Android's "recepient")`. Nil for other branches.
    func missingSpellings(_ ids: [NodeID]) -> String? {
        guard ids.count > 1, let names = ValidityProgram.singleRequiredNames(ids, in: nodes) else { return nil }
        let others = zip(ids, names).dropFirst().prefix(3).map { id, name in
            let owner = words.spellings[ValidityProgram.aliasTarget(of: id, in: nodes)]
            return "or " + (owner.map { MessageText.excerpt($0, limit: 20) + "'s " } ?? "") + MessageText.quoted(name)
        }
        let more = names.count > 4 ? ", or \(names.count - 4) more" : ""
        return "missing required member \(MessageText.quoted(names[0])) (\(others.joined(separator: ", "))\(more))"
    }

    /// The violations of the one branch whose own required members the value has (fewest
    /// `required` violations at the value itself): `{"orderID": ..., "card": {...}}` meant the form
    /// with `orderID`, and hears only what is wrong with that form. Nil when not collecting, or
    /// when no single branch stands out.
    func meantBranchViolations(_ ids: [NodeID], _ value: JSONElement, _ run: ValidationRun) -> [SchemaViolation]? {
        guard run.collect, ids.count > 1 else { return nil }
        let here = run.pointer
        var branches: [[SchemaViolation]] = []
        for id in ids {
            var branch = ValidationRun(collect: true)
            branch.path = run.path
            _ = check(id, value, &branch)
            branches.append(branch.violations)
        }
        let missing = branches.map { violations in violations.filter { $0.keyword == "required" && $0.pointer == here }.count }
        guard let fewest = missing.min(), missing.filter({ $0 == fewest }).count == 1,
            let best = missing.firstIndex(of: fewest), !branches[best].isEmpty
        else { return nil }
        return branches[best]
    }

    func checkOneOf(_ ids: [NodeID], _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        var matched: [Int] = []
        for (position, id) in ids.enumerated() where passes(id, value, &run) {
            matched.append(position)
            if matched.count == 2 { break }
        }
        if matched.count == 1 { return true }
        if matched.isEmpty {
            if let violations = meantBranchViolations(ids, value, run) {
                run.violations += violations
                return false
            }
            return run.fail("oneOf", "does not match any of the \(ids.count) schemas of oneOf")
        }
        return run.fail("oneOf", "matches more than one schema of oneOf (at least #\(matched[0]) and #\(matched[1]))")
    }

    func checkNot(_ id: NodeID, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        !passes(id, value, &run) || run.fail("not", "must not match the schema of not")
    }

    /// `then`'s or `else`'s own violations are reported.
    func checkConditional(
        _ condition: NodeID, _ then: NodeID?, _ otherwise: NodeID?, _ value: JSONElement,
        _ run: inout ValidationRun
    ) -> Bool {
        if passes(condition, value, &run) {
            guard let then else { return true }
            return checkChild(then, value, &run, keyword: "then")
        }
        guard let otherwise else { return true }
        return checkChild(otherwise, value, &run, keyword: "else")
    }
}
