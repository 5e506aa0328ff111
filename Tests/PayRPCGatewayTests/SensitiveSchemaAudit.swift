import PayRPCJSON
import PayRPCSchema

/// Walks schemas for members whose names look like secrets (``SensitiveName``) and that no
/// `x-sensitive` marks, and for `x-sensitive` values that are neither `true` nor `"last4"`.
///
/// Every part of a schema is visited: `properties`, `items`, `additionalProperties`,
/// `patternProperties`, the combinators, and each `#/definitions/` model once per root and per
/// context (a card object or not: a bare `number` is a card number only inside a card). A finding
/// names the JSON Pointer of the member in the schema document (`/definitions/northstar.Card/
/// properties/number`), so a model used by many methods is one finding.
struct SensitiveSchemaAudit {
    /// One member that breaks the rule.
    struct Finding: Hashable {
        /// Where it is: the JSON Pointer of the member's schema.
        var pointer: String
        /// What is wrong.
        var problem: String
    }

    let definitions: SchemaDefinitions
    /// The pointers the allow-list names: members that look secret and are not.
    let allowed: Set<String>
    private(set) var findings: Set<Finding> = []
    /// The allowed pointers the walk met unmarked (an entry it never meets is stale).
    private(set) var allowedSeen: Set<String> = []
    private var visited: Set<String> = []

    init(definitions: SchemaDefinitions, allowed: Set<String>) {
        self.definitions = definitions
        self.allowed = allowed
    }

    /// Audits `schema`, found at `pointer`; `cardObject` says whether its value is a card.
    mutating func audit(_ schema: JSONValue, at pointer: String = "", cardObject: Bool = false) {
        guard case .object = schema else { return }
        if let mark = schema[SensitiveStyle.keyword] {
            if SensitiveStyle(schemaValue: mark) == nil {
                findings.insert(Finding(pointer: pointer, problem: "x-sensitive is \(mark.jsonText): write true or \"last4\""))
            }
            // Masked whole or to its last four: what is inside is masked with it.
            return
        }
        if let reference = schema["$ref"]?.stringValue, reference.hasPrefix("#/definitions/") {
            let name = String(reference.dropFirst("#/definitions/".count))
            let card = cardObject || SensitiveName.namesCard(name)
            if visited.insert("\(name)|\(card)").inserted, let target = definitions.schemas[name] {
                audit(target, at: "/definitions/\(name)", cardObject: card)
            }
        }
        if case .object(let properties)? = schema["properties"] {
            for property in properties {
                let memberPointer = pointer + "/properties/" + Self.escaped(property.name)
                if SensitiveName.style(ofMember: property.name, inObjectNamed: cardObject ? "card" : nil) != nil,
                    !isMarked(property.value)
                {
                    if allowed.contains(memberPointer) {
                        allowedSeen.insert(memberPointer)
                    } else {
                        findings.insert(
                            Finding(
                                pointer: memberPointer,
                                problem:
                                    "`\(property.name)` is named like a secret and not marked: tag it `- Sensitive` (or `- Sensitive: last4`), or allow it with a reason"
                            ))
                    }
                }
                audit(property.value, at: memberPointer, cardObject: SensitiveName.namesCard(property.name))
            }
        }
        for keyword in ["additionalProperties", "items", "additionalItems", "not", "then", "else", "if"] {
            guard let sub = schema[keyword] else { continue }
            if case .array(let tuple) = sub {
                for (index, element) in tuple.enumerated() {
                    audit(element, at: "\(pointer)/\(keyword)/\(index)", cardObject: cardObject)
                }
            } else {
                audit(sub, at: "\(pointer)/\(keyword)", cardObject: cardObject)
            }
        }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            guard case .array(let branches)? = schema[keyword] else { continue }
            for (index, branch) in branches.enumerated() {
                audit(branch, at: "\(pointer)/\(keyword)/\(index)", cardObject: cardObject)
            }
        }
        for keyword in ["patternProperties", "dependencies", "definitions"] {
            guard case .object(let members)? = schema[keyword] else { continue }
            for member in members {
                audit(member.value, at: "\(pointer)/\(keyword)/\(Self.escaped(member.name))", cardObject: cardObject)
            }
        }
    }

    /// Whether a member's schema marks it: itself, its elements, or a branch of a combinator.
    private func isMarked(_ schema: JSONValue) -> Bool {
        if schema[SensitiveStyle.keyword] != nil { return true }
        if let items = schema["items"], isMarked(items) { return true }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            if case .array(let branches)? = schema[keyword], branches.contains(where: isMarked) { return true }
        }
        return false
    }

    /// A member name as a JSON Pointer token.
    static func escaped(_ name: String) -> String {
        var result = ""
        for character in name {
            switch character {
            case "~": result += "~0"
            case "/": result += "~1"
            default: result.append(character)
            }
        }
        return result
    }
}
