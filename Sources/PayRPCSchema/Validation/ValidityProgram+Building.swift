import Foundation
import PayRPCJSON

/// Making a program from a compiled node table.
extension ValidityProgram {
    /// The most distinct `required` names a ``MemberGroup`` tracks (one bit each); a schema with
    /// more keeps its `required` as a legacy check.
    static let maximumRequiredNames = 64

    /// Rewrites `table` (a ``SchemaCompiler`` result, free of `$ref` loops that do not descend into
    /// the value).
    init(compiling table: [SchemaNode]) {
        let targets = table.indices.map { Self.aliasTarget(of: $0, in: table) }
        let empty = Node(types: Self.anyType, members: -1, ops: Span(start: 0, count: 0))
        nodes = Array(repeating: empty, count: table.count)
        for id in table.indices where targets[id] == id {
            let start = ops.count
            var node = empty
            switch table[id] {
            case .always(let valid):
                if !valid { node.types = [] }
            case .reference(let target):
                // Only when following references did not end (not for a checked table).
                ops.append(.allOf(list([target])))
            case .checks(let checks):
                node = emit(checks, table: table)
            }
            node.ops = Span(start: Int32(start), count: Int32(ops.count - start))
            nodes[id] = node
        }
        for id in table.indices where targets[id] != id {
            nodes[id] = nodes[targets[id]]
        }
    }

    /// The node `id` stands for: following `$ref`s and `allOf`s of one schema with no other
    /// assertion (annotations such as `description` compile to nothing), which all validate
    /// the same value against their target and add nothing.
    static func aliasTarget(of id: NodeID, in table: [SchemaNode]) -> NodeID {
        var current = id
        // A checked table has no loop of these; the bound only guards against one.
        for _ in 0...table.count {
            switch table[current] {
            case .reference(let target):
                current = target
            case .checks(let checks):
                guard checks.count == 1, case .allOf(let ids) = checks[0], ids.count == 1 else { return current }
                current = ids[0]
            case .always:
                return current
            }
        }
        return current
    }

    /// Appends the ops of one schema object's checks.
    /// - Returns: the node, but for its ops' range.
    private mutating func emit(_ checks: [SchemaCheck], table: [SchemaNode]) -> Node {
        var node = Node(types: Self.anyType, members: -1, ops: Span(start: 0, count: 0))
        var required: [String]?
        var groupMembers: MemberSchemas?
        var dependencies: [(name: String, node: NodeID)]?
        // `anyOf` whose branches each only require one name joins the member group too.
        var requiredAny: [[String]] = []
        for check in checks {
            switch check {
            case .anyOf(let ids):
                if let names = Self.singleRequiredNames(ids, in: table) {
                    requiredAny.append(names)
                }
            case .required(let names): required = names
            case .members(let members) where members.patterns.isEmpty: groupMembers = members
            case .dependencies(let entries):
                // Schema dependencies join the member group: checked when their member is met in
                // the one walk over the object. Member-list dependencies stay a legacy check.
                let schemas = entries.compactMap { entry -> (String, NodeID)? in
                    if case .schema(let id) = entry.dependency { return (entry.name, id) }
                    return nil
                }
                if schemas.count == entries.count { dependencies = schemas }
            default: break
            }
        }
        // `required` joins the member group (or makes one) unless it has too many names.
        let requiredInGroup = required.map { Self.distinctNames($0).count <= Self.maximumRequiredNames } ?? false
        let bitsNeeded = Self.distinctNames((requiredInGroup ? required ?? [] : []) + requiredAny.flatMap { $0 }).count
        if bitsNeeded > Self.maximumRequiredNames { requiredAny = [] }
        if groupMembers != nil || requiredInGroup || dependencies != nil || !requiredAny.isEmpty {
            node.members = memberGroup(
                groupMembers?.properties ?? [], additional: groupMembers?.additional,
                required: requiredInGroup ? required ?? [] : [], dependencies: dependencies ?? [],
                requiredAny: requiredAny)
        }
        for check in checks {
            switch check {
            case .type(let types): node.types = types
            case .enumeration(let values): ops.append(.enumeration(valueSet(values.elements)))
            case .constant(let value): ops.append(.enumeration(valueSet(value.elements)))
            case .allOf(let ids): ops.append(.allOf(list(ids)))
            case .anyOf(let ids):
                if requiredAny.isEmpty || Self.singleRequiredNames(ids, in: table) == nil { ops.append(.anyOf(list(ids))) }
            case .oneOf(let ids): ops.append(.oneOf(list(ids)))
            case .not(let id): ops.append(.not(Int32(id)))
            case .conditional(let condition, let then, let otherwise):
                ops.append(.conditional(if: Int32(condition), then: Int32(then ?? -1), else: Int32(otherwise ?? -1)))
            case .minLength(let minimum): ops.append(.minLength(minimum))
            case .maxLength(let maximum): ops.append(.maxLength(maximum))
            case .pattern(let regex):
                regexes.append(regex)
                ops.append(.pattern(Int32(regexes.count - 1)))
            case .format(let format): ops.append(.format(format))
            case .items(let id): ops.append(.items(Int32(id)))
            case .tupleItems(let ids, let additional):
                ops.append(.tupleItems(list(ids), additional: Int32(additional ?? -1)))
            case .contains(let id): ops.append(.contains(Int32(id)))
            case .minItems(let minimum): ops.append(.minItems(minimum))
            case .maxItems(let maximum): ops.append(.maxItems(maximum))
            case .members(let members) where members.patterns.isEmpty:
                break  // in the member group
            case .required where requiredInGroup:
                break  // in the member group
            case .dependencies where dependencies != nil:
                break  // in the member group
            case .minProperties(let minimum): ops.append(.minProperties(minimum))
            case .maxProperties(let maximum): ops.append(.maxProperties(maximum))
            case .propertyNames(let id): ops.append(.propertyNames(Int32(id)))
            case .bound, .multipleOf, .uniqueItems, .members, .required, .dependencies:
                legacyChecks.append(check)
                ops.append(.legacy(Int32(legacyChecks.count - 1)))
            }
        }
        return node
    }

    /// The names of `anyOf` branches that each only require one name (`{"required": ["a"]}`,
    /// annotations aside); nil when any branch asks for more.
    static func singleRequiredNames(_ ids: [NodeID], in table: [SchemaNode]) -> [String]? {
        var names: [String] = []
        for id in ids {
            guard case .checks(let checks) = table[aliasTarget(of: id, in: table)], checks.count == 1,
                case .required(let required) = checks[0], required.count == 1
            else { return nil }
            names.append(required[0])
        }
        return names.isEmpty ? nil : names
    }

    /// `names` without repeats, compared as UTF-8 (as an unescaped member name is), in order.
    static func distinctNames(_ names: [String]) -> [String] {
        var seen: Set<[UInt8]> = []
        return names.filter { seen.insert(Array($0.utf8)).inserted }
    }

    /// Appends a list of node ids.
    private mutating func list(_ ids: [NodeID]) -> Span {
        let start = lists.count
        lists.append(contentsOf: ids.map { Int32($0) })
        return Span(start: Int32(start), count: Int32(ids.count))
    }

    /// Appends bytes to the byte pool.
    private mutating func pool<Bytes: Collection<UInt8>>(_ content: Bytes) -> Span {
        let start = bytes.count
        bytes.append(contentsOf: content)
        return Span(start: Int32(start), count: Int32(bytes.count - start))
    }

    /// Appends a member group; `required` has at most ``maximumRequiredNames`` distinct names.
    private mutating func memberGroup(
        _ properties: [(name: String, node: NodeID)], additional: NodeID?,
        required: [String], dependencies: [(name: String, node: NodeID)],
        requiredAny: [[String]]
    ) -> Int32 {
        let start = memberNames.count
        var positions: [[UInt8]: Int] = [:]
        for property in properties {
            let utf8 = Array(property.name.utf8)
            guard positions[utf8] == nil else { continue }  // a repeated name: the first applies
            positions[utf8] = memberNames.count
            memberNames.append(
                MemberName(
                    bytes: pool(utf8), key: utf8.withUnsafeBytes(Self.key), node: Int32(property.node),
                    requiredBit: 0))
            memberNameTexts.append(property.name)
        }
        var mask: UInt64 = 0
        var bits = 0
        for name in required {
            let utf8 = Array(name.utf8)
            let position: Int
            if let existing = positions[utf8] {
                position = existing
            } else {
                position = memberNames.count
                positions[utf8] = position
                memberNames.append(MemberName(bytes: pool(utf8), key: utf8.withUnsafeBytes(Self.key), node: -1, requiredBit: 0))
                memberNameTexts.append(name)
            }
            if memberNames[position].requiredBit == 0 {
                memberNames[position].requiredBit = 1 << UInt64(bits)
                bits += 1
            }
            mask |= memberNames[position].requiredBit
        }
        var anyMasks: [UInt64] = []
        for names in requiredAny {
            var anyMask: UInt64 = 0
            for name in names {
                let utf8 = Array(name.utf8)
                let position: Int
                if let existing = positions[utf8] {
                    position = existing
                } else {
                    position = memberNames.count
                    positions[utf8] = position
                    memberNames.append(
                        MemberName(bytes: pool(utf8), key: utf8.withUnsafeBytes(Self.key), node: -1, requiredBit: 0))
                    memberNameTexts.append(name)
                }
                if memberNames[position].requiredBit == 0 {
                    memberNames[position].requiredBit = 1 << UInt64(bits)
                    bits += 1
                }
                anyMask |= memberNames[position].requiredBit
            }
            anyMasks.append(anyMask)
        }
        for dependency in dependencies {
            let utf8 = Array(dependency.name.utf8)
            let position: Int
            if let existing = positions[utf8] {
                position = existing
            } else {
                position = memberNames.count
                positions[utf8] = position
                memberNames.append(MemberName(bytes: pool(utf8), key: utf8.withUnsafeBytes(Self.key), node: -1, requiredBit: 0))
                memberNameTexts.append(dependency.name)
            }
            if memberNames[position].dependency < 0 { memberNames[position].dependency = Int32(dependency.node) }
        }
        memberGroups.append(
            MemberGroup(
                names: Span(start: Int32(start), count: Int32(memberNames.count - start)),
                additional: Int32(additional ?? -1), required: mask,
                presenceOnly: properties.isEmpty && additional == nil && dependencies.isEmpty
                    && anyMasks.isEmpty,
                requiredAny: anyMasks))
        return Int32(memberGroups.count - 1)
    }

    /// Appends the value set of an `enum` or `const`.
    private mutating func valueSet(_ values: [JSONElement]) -> Int32 {
        let stringStart = enumStrings.count
        let otherStart = otherValues.count
        for value in values {
            if value.kind == .string, let content = value.stringContentBytes {
                enumStrings.append(ConstantString(bytes: pool(content), escaped: value.hasEscapes))
                enumTexts.append(value.string ?? "")
            } else {
                otherValues.append(value)
            }
        }
        valueSets.append(
            ValueSet(
                strings: Span(start: Int32(stringStart), count: Int32(enumStrings.count - stringStart)),
                others: Span(start: Int32(otherStart), count: Int32(otherValues.count - otherStart))))
        return Int32(valueSets.count - 1)
    }
}
