import PayRPCJSON

/// The secrets a schema declares (`x-sensitive`), found once by walking the schema, and a value
/// with them masked.
///
/// What a call journal records goes through one: a method's params and result, a notification's
/// payload, an outgoing HTTP body and its answer. The schema is walked once, when the mask is
/// made (``init(schema:definitions:)``), into a small tree of positions: by member name, array
/// items, the members no name declares (`additionalProperties`), with `allOf`/`anyOf`/`oneOf`
/// and `$ref`s merged into the position they apply at, and every part of the schema that holds
/// no secret and admits no member it does not name left out. Masking a value is then one walk of
/// the value along that tree; a value whose schema declares nothing is not walked at all
/// (``isEmpty``).
///
/// A secret is replaced as its ``SensitiveStyle`` says: `"***"` whole, or `"****1111"` for a card
/// number. Members the schema declares and does not mark are left alone (the gateway's schema
/// test holds every declared name that looks like a secret to a mark or a reason). Members it
/// does not declare, and everything inside a free-form position (`{}`, a `JSONValue` field), get
/// the name rule (``SensitiveName``), which is all ``byName`` has: for a value that no schema
/// describes.
///
/// A value that breaks its schema (refused params) may carry members in a part of the schema
/// that declares no secret, which the walk does not enter: mask such a value with ``byName``.
public struct SensitiveMask: Sendable, Equatable {
    /// Where the walk goes from one position.
    enum Step: Sendable, Equatable {
        /// Nowhere: nothing below is a secret.
        case clean
        /// Everywhere, by the name rule: nothing below is described.
        case byName
        /// Along the node of that index.
        case node(Int)
    }

    /// One position of the schema, with what its value's parts are masked by.
    struct Node: Sendable, Equatable {
        /// The value here is a secret: masked whole or to its last four characters.
        var style: SensitiveStyle?
        /// The declared members, by name (a `.clean` entry still declares the member: the name
        /// rule does not apply to it).
        var properties: [String: Step]
        /// What a member that ``properties`` does not name is masked by, after the name rule.
        var undeclared: Step
        /// What every array element is masked by.
        var items: Step
    }

    /// The positions; ``root`` and the steps name them by index.
    let nodes: [Node]
    /// Where the walk starts.
    let root: Step

    init(nodes: [Node], root: Step) {
        self.nodes = nodes
        self.root = root
    }

    /// Masks nothing.
    public static let none = SensitiveMask(nodes: [], root: .clean)

    /// Masks by member name alone (``SensitiveName``), everywhere in the value: for a value that
    /// no schema describes (an HTTP body of an unknown shape, text that does not parse as the
    /// model it should be).
    public static let byName = SensitiveMask(nodes: [], root: .byName)

    /// Whether nothing is masked (the journal skips the walk of such values).
    public var isEmpty: Bool { root == .clean }

    /// `value` with every sensitive member replaced: `"last4"` → `"****"` followed by the last
    /// four characters of the string (shorter strings than eight characters: `"****"`);
    /// otherwise the string `"***"` whatever the type was (`null` stays `null`: it holds
    /// nothing). Members not declared by the schema are left alone, except that the name rule
    /// (``byName``) applies to them.
    public func masked(_ value: JSONValue) -> JSONValue {
        walk(root, value, parent: nil)
    }

    /// The style of a top-level member named `name`, as the schema declares it or, for a member
    /// it does not declare, as the name rule says: for bodies whose members are not JSON (an
    /// `application/x-www-form-urlencoded` form), whose values are masked one by one.
    public func style(ofTopLevelMember name: String) -> SensitiveStyle? {
        switch root {
        case .clean: return nil
        case .byName: return SensitiveName.style(ofMember: name)
        case .node(let index):
            let node = nodes[index]
            if let style = node.style { return style }
            if let step = node.properties[name] {
                guard case .node(let child) = step else { return nil }
                return nodes[child].style
            }
            return SensitiveName.style(ofMember: name) ?? topLevelStyle(of: node.undeclared)
        }
    }

    private func topLevelStyle(of step: Step) -> SensitiveStyle? {
        guard case .node(let index) = step else { return nil }
        return nodes[index].style
    }

    /// `value` masked along `step`; `parent` is the name of the member that holds it.
    private func walk(_ step: Step, _ value: JSONValue, parent: String?) -> JSONValue {
        switch step {
        case .clean:
            return value
        case .byName:
            return Self.maskedByName(value, parent: parent)
        case .node(let index):
            let node = nodes[index]
            if let style = node.style { return style.masked(value) }
            switch value {
            case .object(let members):
                return .object(
                    members.map { member in
                        if let step = node.properties[member.name] {
                            if step == .clean { return member }
                            return JSONValue.Member(member.name, walk(step, member.value, parent: member.name))
                        }
                        if let masked = Self.maskedIfNamedSecret(member, parent: parent) { return masked }
                        return JSONValue.Member(member.name, walk(node.undeclared, member.value, parent: member.name))
                    })
            case .array(let elements):
                if node.items == .clean { return value }
                return .array(elements.map { walk(node.items, $0, parent: parent) })
            default:
                return value
            }
        }
    }

    /// `value` with every member whose name looks like a secret masked, at any depth.
    static func maskedByName(_ value: JSONValue, parent: String?) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                members.map { member in
                    maskedIfNamedSecret(member, parent: parent)
                        ?? JSONValue.Member(member.name, maskedByName(member.value, parent: member.name))
                })
        case .array(let elements):
            return .array(elements.map { maskedByName($0, parent: parent) })
        default:
            return value
        }
    }

    /// `member` masked when its name looks like a secret; nil when it does not. A boolean is
    /// never a secret (`pinRequired: true`), whatever its name.
    static func maskedIfNamedSecret(_ member: JSONValue.Member, parent: String?) -> JSONValue.Member? {
        if case .bool = member.value { return nil }
        guard let style = SensitiveName.style(ofMember: member.name, inObjectNamed: parent) else { return nil }
        return JSONValue.Member(member.name, style.masked(member.value))
    }
}
