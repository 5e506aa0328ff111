import PayRPCJSON

/// Walking the node table over a value.
extension CompiledSchema {
    /// Validates `value` against node `id`; in collecting mode it goes on after a failure.
    func check(_ id: NodeID, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        switch nodes[id] {
        case .always(let valid):
            return valid || run.fail("false", "no value is allowed here")
        case .reference(let target):
            return check(target, value, &run)
        case .checks(let checks):
            if run.collect, let format = words.formats[id] {
                return checkNamedFormat(checks, format, value, &run)
            }
            // Through the buffer: each keyword is borrowed in place, not copied (a copy retains
            // the keyword's payload; that was a tenth of the validation time).
            return checks.withUnsafeBufferPointer { keywords in
                var valid = true
                for index in keywords.indices where !evaluate(keywords[index], value, &run) {
                    valid = false
                    if !run.collect { return false }
                }
                return valid
            }
        }
    }

    /// The checks of a schema with `x-format`: those that say what a string of the format looks
    /// like (`type`, `pattern`, `format`, `minLength`, `maxLength`) report one violation, under the
    /// first of them that fails, in the format's words (`must be an amount: …`); the others
    /// report as usual.
    func checkNamedFormat(
        _ checks: [SchemaCheck], _ format: String, _ value: JSONElement,
        _ run: inout ValidationRun
    ) -> Bool {
        var valid = true
        var reported = false
        for check in checks {
            let before = run.violations.count
            if evaluate(check, value, &run) { continue }
            valid = false
            guard check.describesAString, run.violations.count > before else { continue }
            let keyword = run.violations[before].keyword
            run.violations.removeSubrange(before...)
            if reported { continue }
            reported = true
            let found = keyword == "type" ? " (found \(NumberText.kindName(value)))" : ""
            _ = run.fail(keyword, "must be " + MessageText.excerpt(format, limit: FormatWords.maximumLength) + found)
        }
        return valid
    }

    /// Validates a member or item against node `id`; a `false` schema is reported under the
    /// keyword that applied it (`additionalProperties`, `items`, ...).
    func checkChild(_ id: NodeID, _ value: JSONElement, _ run: inout ValidationRun, keyword: String) -> Bool {
        if case .always(false) = nodes[id] { return run.fail(keyword, "not allowed by \(keyword)") }
        return check(id, value, &run)
    }

    /// Whether `value` passes node `id`, recording nothing.
    func passes(_ id: NodeID, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        let collect = run.collect
        run.collect = false
        defer { run.collect = collect }
        return check(id, value, &run)
    }

    /// One keyword check.
    func evaluate(_ keyword: SchemaCheck, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        switch keyword {
        case .type(let types): return checkType(types, value, &run)
        case .enumeration(let values): return checkEnum(values.elements, value, &run)
        case .constant(let constant): return checkConst(constant.elements[0], value, &run)
        case .allOf(let ids): return checkAllOf(ids, value, &run)
        case .anyOf(let ids): return checkAnyOf(ids, value, &run)
        case .oneOf(let ids): return checkOneOf(ids, value, &run)
        case .not(let id): return checkNot(id, value, &run)
        case .conditional(let condition, let then, let otherwise):
            return checkConditional(condition, then, otherwise, value, &run)
        case .bound(let bound): return Self.checkBound(bound, value, &run)
        case .multipleOf(let divisor): return Self.checkMultipleOf(divisor, value, &run)
        case .minLength(let minimum): return checkLength(minimum: minimum, value, &run)
        case .maxLength(let maximum): return checkLength(maximum: maximum, value, &run)
        case .pattern(let regex): return checkPattern(regex, value, &run)
        case .format(let format): return checkFormat(format, value, &run)
        case .items(let id): return checkItems(id, value, &run)
        case .tupleItems(let ids, let additional): return checkTupleItems(ids, additional, value, &run)
        case .contains(let id): return checkContains(id, value, &run)
        case .minItems(let minimum): return checkItemCount(minimum: minimum, value, &run)
        case .maxItems(let maximum): return checkItemCount(maximum: maximum, value, &run)
        case .uniqueItems: return checkUniqueItems(value, &run)
        case .members(let members): return checkMembers(members, value, &run)
        case .required(let names): return checkRequired(names, value, &run)
        case .minProperties(let minimum): return checkMemberCount(minimum: minimum, value, &run)
        case .maxProperties(let maximum): return checkMemberCount(maximum: maximum, value, &run)
        case .propertyNames(let id): return checkPropertyNames(id, value, &run)
        case .dependencies(let entries): return checkDependencies(entries, value, &run)
        }
    }
}
