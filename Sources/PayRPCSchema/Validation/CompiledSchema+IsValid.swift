#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PayRPCJSON

/// Walking the ``ValidityProgram`` over a value: the yes/no answer of ``isValid(_:)``, which
/// stops at the first failed keyword and records nothing.
extension CompiledSchema {
    /// Whether `value` passes node `id` of the program: its `type`, its members, then its ops.
    @inline(__always)
    func holds(_ id: Int32, _ value: JSONElement) -> Bool {
        let node = program.nodes[Int(id)]
        guard Self.hasType(node.types, value) else { return false }
        if node.members >= 0 && !membersHold(node.members, value) { return false }
        return node.ops.count == 0 || holds(node.ops, value)
    }

    /// Whether `value` passes the ops of a node.
    ///
    /// The ops params schemas are made of are run here; the others in ``holdsOther(_:_:)``,
    /// so that this function, entered once per node, stays small (a large one saves and
    /// restores more registers on every call).
    @inline(never)
    private func holds(_ ops: ValidityProgram.Span, _ value: JSONElement) -> Bool {
        var position = Int(ops.start)
        let end = position + Int(ops.count)
        while position < end {
            switch program.ops[position] {
            case .items(let id):
                guard itemsHold(id, value) else { return false }
            case .minLength(let minimum):
                guard Self.hasLength(atLeast: minimum, value) else { return false }
            case .maxLength(let maximum):
                guard Self.hasLength(atMost: maximum, value) else { return false }
            case let op:
                guard holdsOther(op, value) else { return false }
            }
            position += 1
        }
        return true
    }

    /// Whether `value` passes one op: those ``holds(_:_:)`` does not run itself (it answers for
    /// the others too).
    @inline(never)
    private func holdsOther(_ op: ValidityOp, _ value: JSONElement) -> Bool {
        switch op {
        case .enumeration(let set):
            return isIn(set, value)
        case .allOf(let list):
            for position in list.indices where !holds(program.lists[position], value) { return false }
            return true
        case .anyOf(let list):
            for position in list.indices where holds(program.lists[position], value) { return true }
            return false
        case .oneOf(let list):
            var matches = 0
            for position in list.indices where holds(program.lists[position], value) {
                matches += 1
                if matches == 2 { return false }
            }
            return matches == 1
        case .not(let id):
            return !holds(id, value)
        case .conditional(let condition, let then, let otherwise):
            if holds(condition, value) { return then < 0 || holds(then, value) }
            return otherwise < 0 || holds(otherwise, value)
        case .minLength(let minimum):
            return Self.hasLength(atLeast: minimum, value)
        case .maxLength(let maximum):
            return Self.hasLength(atMost: maximum, value)
        case .pattern(let index):
            guard value.kind == .string else { return true }
            return program.regexes.withUnsafeBufferPointer { $0[Int(index)].matches(stringValue: value) }
        case .format(let format):
            guard value.kind == .string, let text = value.string else { return true }
            return format.accepts(text)
        case .items(let id):
            return itemsHold(id, value)
        case .tupleItems(let list, let additional):
            guard value.kind == .array else { return true }
            var position = 0
            for item in value.arrayElements {
                let id = position < Int(list.count) ? program.lists[Int(list.start) + position] : additional
                if id < 0 { return true }
                if !holds(id, item) { return false }
                position += 1
            }
            return true
        case .contains(let id):
            guard value.kind == .array else { return true }
            for item in value.arrayElements where holds(id, item) { return true }
            return false
        case .minItems(let minimum):
            return value.kind != .array || value.count >= minimum
        case .maxItems(let maximum):
            return value.kind != .array || value.count <= maximum
        case .minProperties(let minimum):
            return value.kind != .object || value.count >= minimum
        case .maxProperties(let maximum):
            return value.kind != .object || value.count <= maximum
        case .propertyNames(let id):
            guard value.kind == .object else { return true }
            for (name, _) in value.objectMembers where !holds(id, name) { return false }
            return true
        case .legacy(let index):
            var run = ValidationRun(collect: false)
            return program.legacyChecks.withUnsafeBufferPointer { evaluate($0[Int(index)], value, &run) }
        }
    }

    /// `items` with one schema: whether every item passes node `id`.
    @inline(never)
    private func itemsHold(_ id: Int32, _ value: JSONElement) -> Bool {
        guard value.kind == .array else { return true }
        let node = program.nodes[Int(id)]
        if node.types == ValidityProgram.anyType && node.members < 0 && node.ops.count == 0 { return true }  // `true`, `{}`
        for item in value.arrayElements where !holds(id, item) { return false }
        return true
    }

    /// `properties`, `additionalProperties` and `required` in one pass over the members.
    ///
    /// A name without escapes is its UTF-8: it is matched by length, ``ValidityProgram/key(_:)``
    /// and (beyond 16 bytes) `memcmp`, and the group's names are distinct as bytes, so at most
    /// one matches. The search starts after the name the previous member matched, since members
    /// usually come in the schema's order. A name with escapes is decoded and compared as a
    /// `String` with every name (as ``JSONElement/stringEquals(_:)`` does), so the answer is the
    /// collecting walker's, canonical equivalence included.
    @inline(never)
    private func membersHold(_ index: Int32, _ value: JSONElement) -> Bool {
        guard value.kind == .object else { return true }
        let group = program.memberGroups[Int(index)]
        let first = Int(group.names.start)
        let end = first + Int(group.names.count)
        var found: UInt64 = 0
        var next = first
        for (name, member) in value.objectMembers {
            var node = group.additional
            if !name.hasEscapes, let content = name.stringContentBytes {
                let key = ValidityProgram.key(content)
                var position = next
                for _ in first..<end {
                    if position == end { position = first }
                    let entry = program.memberNames[position]
                    position += 1
                    guard entry.bytes.count == content.count, entry.key == key,
                        content.count <= 16 || bytesEqual(entry.bytes, content)
                    else { continue }
                    found |= entry.requiredBit
                    if entry.node >= 0 { node = entry.node }
                    if entry.dependency >= 0 && !holds(entry.dependency, value) { return false }
                    next = position
                    break
                }
            } else {
                let text = name.string ?? ""
                var matched = false
                for position in first..<end where program.memberNameTexts[position] == text {
                    found |= program.memberNames[position].requiredBit
                    let dependency = program.memberNames[position].dependency
                    if dependency >= 0 && !holds(dependency, value) { return false }
                    if !matched && program.memberNames[position].node >= 0 {
                        matched = true
                        node = program.memberNames[position].node
                    }
                }
            }
            if node >= 0 && !holds(node, member) { return false }
            if group.presenceOnly && found & group.required == group.required { return true }
        }
        for mask in group.requiredAny where found & mask == 0 { return false }
        return found & group.required == group.required
    }

    /// Whether `value` is one of the values of an `enum` or `const`, compared as
    /// ``JSONElement/jsonEquals(_:)`` compares them (strings by bytes when neither has escapes).
    private func isIn(_ index: Int32, _ value: JSONElement) -> Bool {
        let set = program.valueSets[Int(index)]
        guard value.kind == .string else {
            for position in set.others.indices where program.otherValues[position].jsonEquals(value) { return true }
            return false
        }
        guard let content = value.stringContentBytes else { return false }
        let escaped = value.hasEscapes
        var text: String?
        for position in set.strings.indices {
            let candidate = program.enumStrings[position]
            if !escaped && !candidate.escaped {
                if candidate.bytes.count == content.count && bytesEqual(candidate.bytes, content) { return true }
            } else {
                if text == nil { text = value.string }
                if text == program.enumTexts[position] { return true }
            }
        }
        return false
    }

    /// Whether `span` of the program's byte pool holds the same bytes as `content` (of the
    /// span's length).
    @inline(__always)
    private func bytesEqual(_ span: ValidityProgram.Span, _ content: UnsafeRawBufferPointer) -> Bool {
        let count = Int(span.count)
        if count == 0 { return true }
        return program.bytes.withUnsafeBytes { pool in
            memcmp(pool.baseAddress! + Int(span.start), content.baseAddress!, count) == 0
        }
    }

    /// `type`: whether `value` is of one of `types` (a number with a zero fraction is an integer).
    @inline(__always)
    static func hasType(_ types: JSONTypeSet, _ value: JSONElement) -> Bool {
        let kind = value.kind
        // The JSONTypeSet bit of each kind, a byte each, in JSONKind order: null, bool, number,
        // string, array, object.
        let bit = UInt8(truncatingIfNeeded: UInt64(0x04_08_40_10_02_01) >> (UInt64(kind.rawValue) * 8))
        if types.rawValue & bit != 0 { return true }
        return kind == .number && types.contains(.integer) && NumberText.isInteger(value)
    }

    /// `minLength`: whether a string has at least `minimum` code points (other kinds pass).
    ///
    /// A string never has more code points than bytes of content, escapes included (each escape
    /// is one code point written with two to twelve bytes), and non-empty content is at least one
    /// code point: only longer minimums count.
    static func hasLength(atLeast minimum: Int, _ value: JSONElement) -> Bool {
        guard let content = value.stringContentBytes else { return true }
        if content.count < minimum { return false }
        return minimum <= 1 || codePointCount(value) >= minimum
    }

    /// `maxLength`: whether a string has at most `maximum` code points (other kinds pass).
    static func hasLength(atMost maximum: Int, _ value: JSONElement) -> Bool {
        guard let content = value.stringContentBytes else { return true }
        return content.count <= maximum || codePointCount(value) <= maximum
    }
}
