import PayRPCJSON

/// `properties`, `patternProperties`, `additionalProperties`, `required`, `minProperties`,
/// `maxProperties`, `propertyNames`, `dependencies`.
extension CompiledSchema {
    func checkMembers(_ members: MemberSchemas, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .object else { return true }
        var valid = true
        for (name, member) in value.objectMembers {
            let entered = run.enter(.key(name))
            defer { run.leave(entered) }
            var matched = false
            for property in members.properties where name.stringEquals(property.name) {
                matched = true
                if !checkChild(property.node, member, &run, keyword: "properties") {
                    valid = false
                    if !run.collect { return false }
                }
                break
            }
            if !members.patterns.isEmpty, let text = name.string {
                for pattern in members.patterns where pattern.regex.matches(text) {
                    matched = true
                    if !checkChild(pattern.node, member, &run, keyword: "patternProperties") {
                        valid = false
                        if !run.collect { return false }
                    }
                }
            }
            if !matched, let additional = members.additional {
                if case .always(false) = nodes[additional] {
                    // The member's name as decoded, not as escaped on the wire: `{"\u0061": 1}` and
                    // `{"a": 1}` are one member, and an owned value (written anew) reads the same.
                    valid = run.fail(
                        "additionalProperties", "member \(MessageText.quoted(name.string ?? name.rawText)) is not allowed")
                } else if !check(additional, member, &run) {
                    valid = false
                }
                if !valid && !run.collect { return false }
            }
        }
        return valid
    }

    func checkRequired(_ names: [String], _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .object else { return true }
        var valid = true
        for name in names where value.member(name) == nil {
            valid = run.fail("required", "missing required member \(MessageText.quoted(name))")
            if !run.collect { return false }
        }
        return valid
    }

    func checkMemberCount(minimum: Int, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .object else { return true }
        return value.count >= minimum
            || run.fail("minProperties", "must have at least \(minimum) member\(minimum == 1 ? "" : "s")")
    }

    func checkMemberCount(maximum: Int, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .object else { return true }
        return value.count <= maximum
            || run.fail("maxProperties", "must have at most \(maximum) member\(maximum == 1 ? "" : "s")")
    }

    /// Each member name is validated as a string; violations point at the member.
    func checkPropertyNames(_ id: NodeID, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .object else { return true }
        var valid = true
        for (name, _) in value.objectMembers {
            let entered = run.enter(.key(name))
            let nameValid = checkChild(id, name, &run, keyword: "propertyNames")
            run.leave(entered)
            if !nameValid {
                valid = false
                if !run.collect { return false }
            }
        }
        return valid
    }

    func checkDependencies(
        _ entries: [(name: String, dependency: SchemaDependency)], _ value: JSONElement,
        _ run: inout ValidationRun
    ) -> Bool {
        guard value.kind == .object else { return true }
        var valid = true
        for entry in entries where value.member(entry.name) != nil {
            switch entry.dependency {
            case .members(let names):
                for name in names where value.member(name) == nil {
                    valid = run.fail(
                        "dependencies",
                        "member \(MessageText.quoted(name)) is required when \(MessageText.quoted(entry.name)) is present")
                    if !run.collect { return false }
                }
            case .schema(let id):
                if !checkChild(id, value, &run, keyword: "dependencies") {
                    valid = false
                    if !run.collect { return false }
                }
            }
        }
        return valid
    }
}
