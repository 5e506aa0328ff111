import PayRPCJSON
import PayRPCSchema

/// Writes `checking(_:)` (``CheckedJSONDecodable``) for the models the engine decodes params
/// into: one pass over the value that checks every rule of the model's schema while it reads.
///
/// The checks are compiled from the schemas the analyzer built (a field's `type`, `pattern`,
/// `format`, `minLength`, `maxLength`, bounds, `multipleOf`, `items`, `minItems`, `maxItems`,
/// `additionalProperties`; a model's members, required members under any of their spellings and
/// the spellings' exclusions), and the values are read with the same codec calls as `init(json:)`,
/// in the same order, so the model is the codec's. A keyword the emitter does not know, a
/// hand-written model or a union it cannot tell apart by one member makes the model (and every
/// model that contains it) keep the validator: the decoder is written only where every rule is
/// checked. Where the validator accepts a spelling the decoder does not read cheaply (`1.0` for
/// an integer), the decoder answers nil and the engine asks the validator.
struct CheckedDecoderEmitter {
    let module: String
    /// Every model of the run, by id.
    let models: [ModelID: ModelDescription]
    /// The models that get a checked decoder.
    let checked: Set<ModelID>

    /// Keywords that say nothing about validity.
    static let annotations: Set<String> = [
        "description", "examples", "default", "deprecated", "title", FormatWords.keyword, "$comment", "readOnly", "writeOnly",
        SensitiveStyle.keyword,
    ]

    /// The models reachable from `roots` (params models) whose rules can all be checked, and the
    /// models their decoders call.
    static func checkedModels(roots: [ModelID], models: [ModelID: ModelDescription]) -> Set<ModelID> {
        var reachable: [ModelID] = []
        var seen: Set<ModelID> = []
        var pending = roots
        while let id = pending.popLast() {
            guard !seen.contains(id), let model = models[id] else { continue }
            seen.insert(id)
            reachable.append(id)
            pending += model.fields.flatMap(\.type.models) + model.unionCases.map(\.payload)
        }
        // Start from every reachable model and drop the ones that cannot be checked, until nothing
        // changes (a model is checkable when its own rules are and every model it uses is).
        var checkable = Set(reachable)
        var changed = true
        while changed {
            changed = false
            for id in checkable {
                guard let model = models[id] else { continue }
                let probe = CheckedDecoderEmitter(module: id.module, models: models, checked: checkable)
                if probe.decoder(for: model, access: "") == nil {
                    checkable.remove(id)
                    changed = true
                }
            }
        }
        return checkable
    }

    /// The extension that declares the checked decoder of `model`, or nil when it cannot be written.
    func decoder(for model: ModelDescription, access: String) -> [String]? {
        var context = Context()
        let body: [String]?
        switch model.header.shape {
        case .object: body = objectBody(model, &context)
        case .stringEnum: body = ["        try? Self(json: json)"]
        case .union: body = unionBody(model)
        case .handWritten: body = nil
        }
        guard let body else { return nil }
        var lines = ["extension \(swiftName(model.header.id)): CheckedJSONDecodable {"]
        if !context.keys.isEmpty {
            let keys = context.keys.map(staticString).joined(separator: ", ")
            lines.append("    /// The members' names, for those written with escapes (``MemberName``).")
            lines.append("    private static let _keys: [StaticString] = [\(keys)]")
        }
        for rule in context.rules { lines.append("    private static let \(rule.name) = \(rule.expression)") }
        if !context.rules.isEmpty || !context.keys.isEmpty { lines.append("") }
        lines += [
            "    /// Reads the model while checking every rule of its schema, in one pass; nil when a rule is",
            "    /// broken or the codec refuses a value (the engine then asks the validator why).",
            "    \(access)static func checking(_ json: JSONElement) -> Self? {",
        ]
        lines += body
        lines += ["    }"]
        if case .object = model.header.shape { lines += [""] + checkedInit(model) }
        lines += ["}"]
        return lines
    }

    // MARK: Objects

    private func objectBody(_ model: ModelDescription, _ context: inout Context) -> [String]? {
        guard let members = model.schema.objectMembers else { return nil }
        let allowed: Set<String> = ["type", "additionalProperties", "properties", "required", "anyOf", "allOf", "dependencies"]
        guard members.allSatisfy({ allowed.contains($0.0) || Self.annotations.contains($0.0) }) else { return nil }
        // Presence bits, one per spelling of an aliased field (the `anyOf`/`dependencies` rules).
        var bits: [String: Int] = [:]
        for field in model.fields where !field.aliases.isEmpty {
            for key in [field.key] + field.aliases.map(\.key) { bits[key] = bits.count }
        }
        guard bits.count <= 64 else { return nil }
        var lines = ["        guard json.kind == .object else { return nil }"]
        for field in model.fields {
            let type = swiftType(field.type)
            lines.append(
                "        var _\(field.name): \(field.isOptional && field.hasInitialValue ? "\(type)??" : "\(type)?") = nil")
        }
        if !bits.isEmpty { lines.append("        var present: UInt64 = 0") }
        let unknown = model.ignoresOtherMembers ? "continue" : "return nil"
        if model.fields.isEmpty {
            if !model.ignoresOtherMembers { lines.append("        guard json.count == 0 else { return nil }") }
        } else {
            // A `switch` on the name's length, then its words against the keys' (``MemberName``);
            // a name written with escapes is looked up among the keys by its text.
            context.keys = model.fields.flatMap { [$0.key] + $0.aliases.map(\.key) }
            lines.append("        for (memberName, memberValue) in json.objectMembers {")
            lines.append("            let name = memberName.memberName(among: Self._keys)")
            lines.append("            switch name.count {")
            for field in model.fields {
                let spellings: [(key: String, isOneElement: Bool)] =
                    [(field.key, false)] + field.aliases.map { ($0.key, $0.isOneElement) }
                for spelling in spellings {
                    lines.append("            case \(Self.keyCase(spelling.key)):  // \(staticString(spelling.key))")
                    if let bit = bits[spelling.key] { lines.append("                present |= \(Self.bitLiteral(bit))") }
                    guard let read = memberRead(field, oneElement: spelling.isOneElement, &context) else { return nil }
                    lines += read.map { "                " + $0 }
                }
            }
            lines += ["            default:", "                \(unknown)", "            }", "        }"]
        }
        for field in model.fields where !field.aliases.isEmpty {
            let keys = [field.key] + field.aliases.map(\.key)
            if field.isRequired {
                lines.append("        guard present & \(Self.mask(keys.map { bits[$0]! })) != 0 else { return nil }")
            }
            for alias in field.aliases {
                let others = keys.filter { $0 != alias.key }.map { bits[$0]! }
                lines.append(
                    "        guard present & \(Self.bitLiteral(bits[alias.key]!)) == 0 || present & \(Self.mask(others)) == 0 else { return nil }"
                )
            }
        }
        for field in model.fields where field.isRequired {
            lines.append("        guard let _\(field.name) else { return nil }")
        }
        let values = model.fields.map { "_\($0.name)" }
        lines.append("        return Self(checkedValues: \(values.isEmpty ? "()" : values.joined(separator: ", ")))")
        return lines
    }

    /// The initializer ``objectBody(_:_:)`` returns through: `Self?` is made in the caller's
    /// slot from it, where a failable `init` built the model apart and copied it into the optional
    /// it returned (through value witnesses, for a model whose layout is known only at run time:
    /// one holding a Foundation `URL`; docs/benchmarks.md, "Fast paths of the kit"). A field with
    /// an initial value keeps it when its local is nil.
    private func checkedInit(_ model: ModelDescription) -> [String] {
        let parameters = model.fields.enumerated().map { index, field -> String in
            let type = swiftType(field.type)
            let spelled = field.isRequired ? type : field.isOptional && field.hasInitialValue ? "\(type)??" : "\(type)?"
            return (index == 0 ? "checkedValues " : "_ ") + "_\(field.name): \(spelled)"
        }
        var lines = [
            "    /// The model of the values ``checking(_:)`` read.",
            "    private init(\(parameters.isEmpty ? "checkedValues: ()" : parameters.joined(separator: ", "))) {",
        ]
        for field in model.fields {
            let property = "self.\(SwiftEmitter.identifier(field.name))"
            if field.hasInitialValue {
                lines.append("        if let _\(field.name) { \(property) = _\(field.name) }")
            } else {
                lines.append("        \(property) = _\(field.name)")
            }
        }
        lines.append("    }")
        return lines
    }

    /// The statements that read one member (`memberValue`) into the field's local, as the codec
    /// does, checking the field's schema first.
    private func memberRead(_ field: FieldDescription, oneElement: Bool, _ context: inout Context) -> [String]? {
        var type = field.type
        var schema = field.schema
        if oneElement {
            guard case .array(let element) = field.type, let itemSchema = Self.keywords(field.schema)?["items"] else {
                return nil
            }
            type = element
            schema = itemSchema
        }
        guard var value = check(schema, type, "memberValue", &context) else { return nil }
        let result = value.result
        value.lines.append(
            "_\(field.name) = " + (field.isOptional && field.hasInitialValue ? ".some(" : "")
                + (oneElement ? "[\(result)]" : result) + (field.isOptional && field.hasInitialValue ? ")" : ""))
        guard field.isOptional else { return value.lines }
        // `null` reads as absent (or as nil over the initial value); the schema must allow it.
        let indented = value.lines.map { "    " + $0 }
        guard Self.acceptsNull(schema, type) else {
            return ["if memberValue.isNull {", "    return nil", "} else {"] + indented + ["}"]
        }
        guard field.hasInitialValue else { return ["if !memberValue.isNull {"] + indented + ["}"] }
        return ["if memberValue.isNull {", "    _\(field.name) = .some(nil)", "} else {"] + indented + ["}"]
    }

    // MARK: Values

    /// Statements that check `value` (a `JSONElement` expression) against `schema` and read it as
    /// `type`, returning nil on any failure; `result` names the value read.
    struct ValueCode {
        var lines: [String]
        var result: String
    }

    /// What the statements of one model's decoder share: the rules they compile once, the names
    /// they bind.
    struct Context {
        var rules: [(name: String, expression: String)] = []
        /// Every spelling of every member, in the order the decoder matches them.
        var keys: [String] = []
        var counter = 0

        mutating func name(_ base: String) -> String {
            counter += 1
            return "\(base)\(counter)"
        }

        mutating func rule(_ expression: String) -> String {
            if let existing = rules.first(where: { $0.expression == expression }) { return "Self.\(existing.name)" }
            let name = "_rule\(rules.count)"
            rules.append((name, expression))
            return "Self.\(name)"
        }
    }

    private func check(_ schema: SchemaJSON, _ type: FieldType, _ value: String, _ context: inout Context) -> ValueCode? {
        guard var keywords = Self.keywords(schema) else { return nil }
        // `{"allOf": [{"$ref": ...}], <annotations>}`: a reference with a description of its own.
        if let allOf = keywords["allOf"], case .array(let parts) = allOf, parts.count == 1, keywords.count == 1,
            let inner = Self.keywords(parts[0])
        {
            keywords = inner
        }
        let result = context.name("value")
        switch type {
        case .model(let id):
            guard keywords.count == 1, case .string(let reference)? = keywords["$ref"],
                reference == "#/definitions/" + (models[id]?.header.definitionName ?? ""), checked.contains(id)
            else { return nil }
            return ValueCode(
                lines: ["guard let \(result) = \(swiftName(id)).checking(\(value)) else { return nil }"], result: result)
        case .any:
            guard keywords.isEmpty else { return nil }
            return ValueCode(lines: ["guard let \(result) = try? JSONValue(json: \(value)) else { return nil }"], result: result)
        case .bool:
            guard Self.only(keywords, ["type"]), keywords["type"] == .string("boolean") else { return nil }
            return ValueCode(lines: ["guard let \(result) = try? Bool(json: \(value)) else { return nil }"], result: result)
        case .int, .int64, .int32, .uint:
            return integer(keywords, type, value, result, &context)
        case .double:
            guard Self.only(keywords, ["type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]),
                keywords["type"] == .string("number")
            else { return nil }
            var conditions = ["\(value).kind == .number"]
            guard numberRules(keywords, value, &conditions, &context) else { return nil }
            conditions.append("let \(result) = try? Double(json: \(value))")
            return ValueCode(lines: [Self.guardLine(conditions)], result: result)
        case .string, .formatted, .amount, .currency, .date, .url:
            return string(keywords, type, value, result, &context)
        case .array(let element):
            guard Self.only(keywords, ["type", "items", "minItems", "maxItems"]), keywords["type"] == .string("array"),
                let items = keywords["items"]
            else { return nil }
            var conditions = ["\(value).kind == .array"]
            if let minimum = Self.count(keywords["minItems"]) { conditions.append("\(value).count >= \(minimum)") }
            if let maximum = Self.count(keywords["maxItems"]) { conditions.append("\(value).count <= \(maximum)") }
            if keywords["minItems"] != nil && Self.count(keywords["minItems"]) == nil { return nil }
            if keywords["maxItems"] != nil && Self.count(keywords["maxItems"]) == nil { return nil }
            let item = context.name("item")
            guard let inner = check(items, element, item, &context) else { return nil }
            var lines = [Self.guardLine(conditions)]
            lines.append("var \(result): [\(swiftType(element))] = []")
            lines.append("\(result).reserveCapacity(\(value).count)")
            lines.append("for \(item) in \(value).arrayElements {")
            lines += inner.lines.map { "    " + $0 }
            lines.append("    \(result).append(\(inner.result))")
            lines.append("}")
            return ValueCode(lines: lines, result: result)
        case .dictionary(let valueType):
            guard Self.only(keywords, ["type", "additionalProperties"]), keywords["type"] == .string("object"),
                let values = keywords["additionalProperties"]
            else { return nil }
            let name = context.name("name"), member = context.name("member")
            guard let inner = check(values, valueType, member, &context) else { return nil }
            var lines = ["guard \(value).kind == .object else { return nil }"]
            lines.append("var \(result): [String: \(swiftType(valueType))] = [:]")
            lines.append("for (\(name), \(member)) in \(value).objectMembers {")
            lines += inner.lines.map { "    " + $0 }
            lines.append("    \(result)[\(name).string ?? \"\"] = \(inner.result)")
            lines.append("}")
            return ValueCode(lines: lines, result: result)
        case .optional(let wrapped):
            // `[T?]`: `{"anyOf": [T's schema, {"type": "null"}]}`.
            guard keywords.count == 1, case .array(let branches)? = keywords["anyOf"], branches.count == 2,
                Self.keywords(branches[1]) == ["type": .string("null")],
                let inner = check(branches[0], wrapped, value, &context)
            else { return nil }
            var lines = ["let \(result): \(swiftType(wrapped))?", "if \(value).isNull {", "    \(result) = nil", "} else {"]
            lines += inner.lines.map { "    " + $0 }
            lines += ["    \(result) = \(inner.result)", "}"]
            return ValueCode(lines: lines, result: result)
        }
    }

    /// An integer field: `type: integer`, bounds and `multipleOf`, read from a plain integer.
    private func integer(
        _ keywords: [String: SchemaJSON], _ type: FieldType, _ value: String, _ result: String,
        _ context: inout Context
    ) -> ValueCode? {
        guard Self.only(keywords, ["type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]),
            keywords["type"] == .string("integer")
        else { return nil }
        let number = context.name("integer")
        var conditions = ["let \(number) = SchemaRules.plainInteger(\(value))"]
        let comparisons = [("minimum", ">="), ("maximum", "<="), ("exclusiveMinimum", ">"), ("exclusiveMaximum", "<")]
        for (keyword, comparison) in comparisons {
            guard let bound = keywords[keyword] else { continue }
            guard case .number(let text) = bound else { return nil }
            if let integer = Int64(text) {
                // A bound every Int64 keeps says nothing here.
                if (keyword == "minimum" && integer == .min) || (keyword == "maximum" && integer == .max) { continue }
                conditions.append("\(number) \(comparison) \(integer)")
            } else {
                guard NumberRule(keyword: keyword, bound: text) != nil else { return nil }
                conditions.append(
                    "\(context.rule("NumberRule(keyword: \(SwiftLiteral.string(keyword)), bound: \(SwiftLiteral.string(text)))!")).holds(\(value))"
                )
            }
        }
        if let divisor = keywords["multipleOf"] {
            guard case .number(let text) = divisor, MultipleOfRule(text) != nil else { return nil }
            if let step = Int64(text), step > 0 {
                conditions.append("\(number) % \(step) == 0")
            } else {
                conditions.append("\(context.rule("MultipleOfRule(\(SwiftLiteral.string(text)))!")).holds(\(value))")
            }
        }
        conditions.append("let \(result) = \(swiftType(type))(exactly: \(number))")
        return ValueCode(lines: [Self.guardLine(conditions)], result: result)
    }

    /// A `number` field's bounds and `multipleOf`, compared exactly.
    private func numberRules(
        _ keywords: [String: SchemaJSON], _ value: String, _ conditions: inout [String],
        _ context: inout Context
    ) -> Bool {
        for keyword in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
            guard let bound = keywords[keyword] else { continue }
            guard case .number(let text) = bound, NumberRule(keyword: keyword, bound: text) != nil else { return false }
            conditions.append(
                "\(context.rule("NumberRule(keyword: \(SwiftLiteral.string(keyword)), bound: \(SwiftLiteral.string(text)))!")).holds(\(value))"
            )
        }
        if let divisor = keywords["multipleOf"] {
            guard case .number(let text) = divisor, MultipleOfRule(text) != nil else { return false }
            conditions.append("\(context.rule("MultipleOfRule(\(SwiftLiteral.string(text)))!")).holds(\(value))")
        }
        return true
    }

    /// A string field (plain, a named format, an amount, a currency, a date, a URL): `type`,
    /// lengths, `pattern` and `format`, then the type's codec. The patterns of `Amount` and
    /// `Currency` are what their codecs read (every active ISO 4217 code is three capitals), so
    /// those two are not matched again.
    private func string(
        _ keywords: [String: SchemaJSON], _ type: FieldType, _ value: String, _ result: String,
        _ context: inout Context
    ) -> ValueCode? {
        guard Self.only(keywords, ["type", "minLength", "maxLength", "pattern", "format"]),
            keywords["type"] == .string("string")
        else { return nil }
        var conditions = ["\(value).kind == .string"]
        if let minimum = keywords["minLength"] {
            guard let count = Self.count(minimum) else { return nil }
            if count > 0 { conditions.append("SchemaRules.hasLength(\(value), atLeast: \(count))") }
        }
        if let maximum = keywords["maxLength"] {
            guard let count = Self.count(maximum) else { return nil }
            conditions.append("SchemaRules.hasLength(\(value), atMost: \(count))")
        }
        if let pattern = keywords["pattern"] {
            guard case .string(let text) = pattern else { return nil }
            let impliedByCodec =
                (type == .amount && text == Amount.decimalPattern) || (type == .currency && text == Currency.codePattern)
            if !impliedByCodec {
                conditions.append("\(context.rule("PatternRule(\(SwiftLiteral.string(text)))")).matches(\(value))")
            }
        }
        if let format = keywords["format"] {
            guard case .string(let name) = format else { return nil }
            if FormatRule(name) != nil {
                conditions.append("\(context.rule("FormatRule(\(SwiftLiteral.string(name)))!")).accepts(\(value))")
            }
        }
        conditions.append("let \(result) = try? \(swiftType(type))(json: \(value))")
        return ValueCode(lines: [Self.guardLine(conditions)], result: result)
    }

    // MARK: Unions

    /// A union: exactly one case's member present, and that case's payload checked. Every other
    /// case's payload then lacks a member it requires, so exactly one branch of the `oneOf` holds,
    /// and the codec picks that case (the first member that names one).
    private func unionBody(_ model: ModelDescription) -> [String]? {
        guard let members = model.schema.objectMembers,
            members.allSatisfy({ $0.0 == "oneOf" || Self.annotations.contains($0.0) })
        else { return nil }
        var lines = ["        guard json.kind == .object else { return nil }", "        var chosen = -1"]
        lines.append("        for (memberName, _) in json.objectMembers {")
        for (index, unionCase) in model.unionCases.enumerated() {
            guard checked.contains(unionCase.payload), let payload = models[unionCase.payload],
                let discriminator = payload.fields.first(where: { $0.key == unionCase.discriminator }),
                discriminator.isRequired, discriminator.aliases.isEmpty
            else { return nil }
            lines += [
                "            if memberName.stringEquals(\(staticString(unionCase.discriminator)) as StaticString) {",
                "                guard chosen == -1 || chosen == \(index) else { return nil }",
                "                chosen = \(index)",
                "            }",
            ]
        }
        lines += ["        }", "        switch chosen {"]
        for (index, unionCase) in model.unionCases.enumerated() {
            lines.append("        case \(index):")
            lines.append("            guard let payload = \(swiftName(unionCase.payload)).checking(json) else { return nil }")
            lines.append("            return .\(identifier(unionCase.name))(payload)")
        }
        lines += ["        default:", "            return nil", "        }"]
        return lines
    }

    // MARK: Helpers

    /// A schema's members by keyword, annotations left out; nil when it is not an object.
    static func keywords(_ schema: SchemaJSON) -> [String: SchemaJSON]? {
        guard let members = schema.objectMembers else { return nil }
        var keywords: [String: SchemaJSON] = [:]
        for (key, value) in members where !annotations.contains(key) { keywords[key] = value }
        return keywords
    }

    /// Whether every keyword is one of `allowed`.
    static func only(_ keywords: [String: SchemaJSON], _ allowed: Set<String>) -> Bool {
        keywords.keys.allSatisfy(allowed.contains)
    }

    /// A non-negative count keyword's value.
    static func count(_ value: SchemaJSON?) -> Int? {
        guard case .number(let text)? = value, let count = Int(text), count >= 0 else { return nil }
        return count
    }

    /// Whether a field's schema lets `null` through (then a `null` member is read as absent, as
    /// the codec reads it): only the schema of any JSON value does.
    static func acceptsNull(_ schema: SchemaJSON, _ type: FieldType) -> Bool {
        type == .any && keywords(schema)?.isEmpty == true
    }

    /// The `case` pattern that matches a member named `key`: its length in UTF-8 bytes, and its
    /// bytes as little-endian words (``MemberName/word(_:)``), eight at a time.
    static func keyCase(_ key: String) -> String {
        let bytes = Array(key.utf8)
        guard !bytes.isEmpty else { return "0" }
        let words = stride(from: 0, to: bytes.count, by: 8).map {
            "name.word(\($0)) == 0x" + String(MemberName.word(of: bytes, at: $0), radix: 16, uppercase: true)
        }
        return "\(bytes.count) where " + words.joined(separator: " && ")
    }

    static func guardLine(_ conditions: [String]) -> String {
        "guard " + conditions.joined(separator: ", ") + " else { return nil }"
    }

    static func bitLiteral(_ bit: Int) -> String { mask([bit]) }

    /// The bits as a hexadecimal `UInt64` literal.
    static func mask(_ bits: [Int]) -> String {
        "0x" + String(bits.reduce(UInt64(0)) { $0 | UInt64(1) << UInt64($1) }, radix: 16)
    }

    private func staticString(_ text: String) -> String { SwiftLiteral.string(text) }

    private func swiftName(_ id: ModelID) -> String { id.swiftName(in: module) }

    private func swiftType(_ type: FieldType) -> String { type.swiftSpelling(in: module) }

    private func identifier(_ name: String) -> String { SwiftEmitter.identifier(name) }
}
