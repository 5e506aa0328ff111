import PayRPCJSON

extension SensitiveMask {
    /// Walks `schema`, resolving `$ref`s in `definitions` (`#/definitions/Name`, a JSON Pointer
    /// below one, `#` for `schema` itself); a model that refers to itself, directly or through
    /// others, is one node the walk comes back to.
    public init(schema: JSONValue, definitions: SchemaDefinitions) {
        var builder = MaskBuilder(root: schema, definitions: definitions)
        let root = builder.step(at: [0])
        self = builder.mask(root: root)
    }

    /// The mask of `type`'s schema (``JSONSchemaProvider/schemaReference`` with its definitions):
    /// an HTTP body's model, an answer's model.
    public init(describing type: any JSONSchemaProvider.Type) {
        var definitions = SchemaDefinitions()
        type.collectSchemaDefinitions(into: &definitions)
        self.init(schema: type.schemaReference, definitions: definitions)
    }
}

/// What one schema says about the value at its position, its sub-schemas left as ids: the first
/// half of building a mask, where combinators are merged.
///
/// `allOf` (and `$ref`, and a schema's own keywords) intersect; `anyOf`, `oneOf` and
/// `then`/`else` unite. Either way the declared members are united, and the stricter style wins:
/// a mask may mask more than a branch asks, never less.
struct SchemaFacts {
    /// The value here is a secret.
    var style: SensitiveStyle?
    /// Whether the value may be an object.
    var mayBeObject = true
    /// Whether the value may be an array.
    var mayBeArray = true
    /// Whether an object here may have members `properties` does not name.
    var admitsUndeclared = true
    /// Whether an array here may have elements no `items` describes.
    var itemsOpen = true
    /// The declared members' schemas.
    var properties: [String: [Int]] = [:]
    /// The schemas of the members `properties` does not name.
    var additional: [Int] = []
    /// The schemas of array elements.
    var items: [Int] = []

    /// Any value (`{}` or `true`).
    static let anything = SchemaFacts()
    /// No value (`false`).
    static let nothing = SchemaFacts(mayBeObject: false, mayBeArray: false, admitsUndeclared: false, itemsOpen: false)

    /// Whether this says nothing at all: any value, nothing declared.
    var isAnything: Bool {
        style == nil && mayBeObject && mayBeArray && admitsUndeclared && itemsOpen && properties.isEmpty
            && additional.isEmpty && items.isEmpty
    }

    /// What holds where both hold (`allOf`).
    func intersected(with other: SchemaFacts) -> SchemaFacts {
        var result = self
        result.style = SensitiveStyle.stricter(style, other.style)
        result.mayBeObject = mayBeObject && other.mayBeObject
        result.mayBeArray = mayBeArray && other.mayBeArray
        result.admitsUndeclared = admitsUndeclared && other.admitsUndeclared
        result.itemsOpen = itemsOpen && other.itemsOpen
        result.absorbSchemas(of: other)
        return result
    }

    /// What holds where either holds (`anyOf`, `oneOf`).
    func united(with other: SchemaFacts) -> SchemaFacts {
        var result = self
        result.style = SensitiveStyle.stricter(style, other.style)
        result.mayBeObject = mayBeObject || other.mayBeObject
        result.mayBeArray = mayBeArray || other.mayBeArray
        result.admitsUndeclared = (mayBeObject && admitsUndeclared) || (other.mayBeObject && other.admitsUndeclared)
        result.itemsOpen = (mayBeArray && itemsOpen) || (other.mayBeArray && other.itemsOpen)
        result.absorbSchemas(of: other)
        return result
    }

    private mutating func absorbSchemas(of other: SchemaFacts) {
        for (name, ids) in other.properties { properties[name, default: []] += ids }
        additional += other.additional
        items += other.items
    }
}

/// Builds a ``SensitiveMask``: the schemas' facts (``SchemaFacts``), then one node per set of
/// schemas that apply at a position, then only the nodes that lead to something to mask.
struct MaskBuilder {
    let definitions: SchemaDefinitions
    /// Every schema met, by id (0 is the root).
    private var schemas: [JSONValue]
    /// The ids of referenced schemas, by reference (a model met twice is one id).
    private var referenced: [String: Int] = [:]
    /// The facts of each schema, once worked out.
    private var facts: [Int: SchemaFacts] = [:]
    /// The schemas whose facts are being worked out (a reference cycle through combinators).
    private var inProgress: Set<Int> = []
    /// The nodes, in the order they were made.
    private var drafts: [Draft] = []
    /// The node of each set of schemas (sorted ids).
    private var nodeOfSchemas: [[Int]: Int] = [:]

    /// A node before the clean ones are left out.
    struct Draft {
        var node: SensitiveMask.Node
        /// Whether the node, on its own, needs the walk: a secret, or members or elements the
        /// schema does not describe.
        var needsWalk: Bool
    }

    init(root: JSONValue, definitions: SchemaDefinitions) {
        self.definitions = definitions
        schemas = [root]
    }

    // MARK: Facts

    /// The id of `schema`: a new one, except that a bare reference (`{"$ref": …}`) is the id of
    /// the schema it names, so that a model used in many places is one node.
    private mutating func intern(_ schema: JSONValue) -> Int {
        if case .object(let members) = schema, members.count == 1, members[0].name == "$ref",
            let reference = members[0].value.stringValue, let id = resolve(reference)
        {
            return id
        }
        schemas.append(schema)
        return schemas.count - 1
    }

    /// The id of the schema `reference` names; nil when it names none here.
    private mutating func resolve(_ reference: String) -> Int? {
        if let id = referenced[reference] { return id }
        let target: JSONValue?
        if reference == "#" {
            return 0
        } else if reference.hasPrefix("#/definitions/") {
            let path = reference.dropFirst("#/definitions/".count)
            let name = path.prefix { $0 != "/" }
            let rest = String(path.dropFirst(name.count))
            target = definitions.schemas[Self.unescaped(name)].flatMap { rest.isEmpty ? $0 : $0.value(at: rest) }
        } else if reference.hasPrefix("#/") {
            target = schemas[0].value(at: String(reference.dropFirst()))
        } else {
            target = nil
        }
        guard let target else { return nil }
        let id = intern(target)
        referenced[reference] = id
        return id
    }

    /// A JSON Pointer token with `~1` and `~0` read back as `/` and `~`.
    private static func unescaped(_ token: Substring) -> String {
        guard token.contains("~") else { return String(token) }
        var result = ""
        var escaping = false
        for character in token {
            if escaping {
                result.append(character == "1" ? "/" : character == "0" ? "~" : character)
                escaping = false
            } else if character == "~" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The facts of schema `id`.
    mutating func facts(of id: Int) -> SchemaFacts {
        if let known = facts[id] { return known }
        // A schema that is, through references and combinators only, part of itself: it adds
        // nothing to itself.
        guard inProgress.insert(id).inserted else { return .anything }
        let worked = work(schemas[id])
        inProgress.remove(id)
        facts[id] = worked
        return worked
    }

    private mutating func work(_ schema: JSONValue) -> SchemaFacts {
        guard case .object(let members) = schema else {
            return schema == .bool(false) ? .nothing : .anything
        }
        var own = SchemaFacts.anything
        var combined: [SchemaFacts] = []
        for member in members {
            switch member.name {
            case SensitiveStyle.keyword:
                // A value the test and the generator refuse still marks a secret.
                if member.value != .bool(false) { own.style = SensitiveStyle(schemaValue: member.value) ?? .whole }
            case "type":
                let types: [String] =
                    switch member.value {
                    case .string(let type): [type]
                    case .array(let list): list.compactMap(\.stringValue)
                    default: ["object", "array"]
                    }
                own.mayBeObject = types.contains("object")
                own.mayBeArray = types.contains("array")
            case "properties":
                guard case .object(let properties) = member.value else { continue }
                for property in properties { own.properties[property.name, default: []].append(intern(property.value)) }
            case "patternProperties":
                // Names the walk cannot match cheaply: their schemas apply to every undeclared member.
                guard case .object(let patterns) = member.value else { continue }
                for pattern in patterns { own.additional.append(intern(pattern.value)) }
            case "additionalProperties":
                if member.value == .bool(false) {
                    own.admitsUndeclared = false
                } else if member.value != .bool(true) {
                    own.additional.append(intern(member.value))
                }
            case "items":
                own.itemsOpen = false
                if case .array(let tuple) = member.value {
                    own.items += tuple.map { intern($0) }
                } else {
                    own.items.append(intern(member.value))
                }
            case "additionalItems":
                if member.value != .bool(false), member.value != .bool(true) { own.items.append(intern(member.value)) }
            case "$ref":
                guard let reference = member.value.stringValue else { continue }
                if let id = resolve(reference) { combined.append(facts(of: id)) }
            case "allOf":
                guard case .array(let branches) = member.value else { continue }
                for branch in branches { combined.append(facts(of: intern(branch))) }
            case "anyOf", "oneOf":
                guard case .array(let branches) = member.value, !branches.isEmpty else { continue }
                combined.append(union(branches))
            case "dependencies":
                // A dependency's schema applies when its member is there: its declarations count.
                guard case .object(let dependencies) = member.value else { continue }
                for dependency in dependencies where dependency.value.isObject {
                    combined.append(facts(of: intern(dependency.value)).united(with: .anything))
                }
            default:
                continue
            }
        }
        // `then` and `else`: one of them applies.
        let conditional = [schema["then"], schema["else"]]
        if conditional.contains(where: { $0 != nil }) {
            combined.append(union(conditional.map { $0 ?? .bool(true) }))
        }
        return combined.reduce(own) { $0.intersected(with: $1) }
    }

    private mutating func union(_ branches: [JSONValue]) -> SchemaFacts {
        var result = SchemaFacts.nothing
        for branch in branches { result = result.united(with: facts(of: intern(branch))) }
        return result
    }

    // MARK: Nodes

    /// The step for the position where the schemas `ids` apply (any of them: their facts are
    /// united), making its node and those below it the first time.
    mutating func step(at ids: [Int]) -> SensitiveMask.Step {
        let key = Array(Set(ids)).sorted()
        if let index = nodeOfSchemas[key] { return .node(index) }
        var merged = SchemaFacts.nothing
        for id in key { merged = merged.united(with: facts(of: id)) }
        if merged.isAnything { return .byName }
        let index = drafts.count
        nodeOfSchemas[key] = index
        drafts.append(
            Draft(
                node: SensitiveMask.Node(style: merged.style, properties: [:], undeclared: .byName, items: .byName),
                needsWalk: true))
        // A secret is masked whole (or to its last four): what is inside does not matter.
        if merged.style != nil { return .node(index) }
        var node = drafts[index].node
        if merged.mayBeObject {
            // In name order, so that the nodes are numbered alike every time: two masks of one
            // schema are equal.
            for name in merged.properties.keys.sorted() { node.properties[name] = step(at: merged.properties[name]!) }
            if !merged.additional.isEmpty { node.undeclared = step(at: merged.additional) }
        }
        if !merged.mayBeArray {
            node.items = .clean
        } else if !merged.items.isEmpty {
            node.items = step(at: merged.items)
        }
        drafts[index] = Draft(
            node: node,
            needsWalk: (merged.mayBeObject && merged.admitsUndeclared) || (merged.mayBeArray && merged.itemsOpen))
        return .node(index)
    }

    /// The mask of `root`: the nodes that lead to something to mask, renumbered; every step to
    /// another is `.clean`.
    func mask(root: SensitiveMask.Step) -> SensitiveMask {
        // Which nodes lead to something to mask: the least fixed point (a cycle of models that
        // declare nothing stays clean).
        var dirty = drafts.map { $0.needsWalk || $0.node.style != nil }
        func leads(_ step: SensitiveMask.Step) -> Bool {
            switch step {
            case .clean: false
            case .byName: true
            case .node(let index): dirty[index]
            }
        }
        var changed = true
        while changed {
            changed = false
            for (index, draft) in drafts.enumerated() where !dirty[index] {
                let node = draft.node
                if node.properties.values.contains(where: leads) || leads(node.items) {
                    dirty[index] = true
                    changed = true
                }
            }
        }
        var renumbered: [Int: Int] = [:]
        for index in drafts.indices where dirty[index] { renumbered[index] = renumbered.count }
        func mapped(_ step: SensitiveMask.Step) -> SensitiveMask.Step {
            guard case .node(let index) = step else { return step }
            return renumbered[index].map { .node($0) } ?? .clean
        }
        let nodes = drafts.indices.filter { dirty[$0] }.map { index in
            let node = drafts[index].node
            return SensitiveMask.Node(
                style: node.style, properties: node.properties.mapValues(mapped), undeclared: mapped(node.undeclared),
                items: mapped(node.items))
        }
        return SensitiveMask(nodes: nodes, root: mapped(root))
    }
}

extension JSONValue {
    fileprivate var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}
