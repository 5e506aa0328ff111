import PayRPCJSON
import PayRPCSchema
import SwiftSyntax
import SwiftParser

/// Turns scanned declarations into model and method descriptions: finds the models, resolves
/// every field type, reads the constraint tags and builds the schemas. Everything it cannot
/// express becomes a ``CodegenDiagnostic``; nothing is skipped silently.
struct ModelAnalyzer {
    /// Schema-name prefixes by module.
    let prefixes: [String: String]
    let scan: ScanResult

    private(set) var diagnostics: [CodegenDiagnostic] = []
    private(set) var headers: [ModelID: ModelHeader] = [:]
    /// The named formats (typealiases of `String` with constraint tags), by `Module.Name`.
    private(set) var namedFormats: [String: NamedFormat] = [:]
    private var typesByModule: [String: [String: ScannedType]] = [:]
    private var aliasesByModule: [String: [String: ScannedAlias]] = [:]

    init(prefixes: [String: String], scan: ScanResult) {
        self.prefixes = prefixes
        self.scan = scan
        methodProtocols = Self.methodProtocols(in: scan)
        for type in scan.types { typesByModule[type.module, default: [:]][type.swiftName] = type }
        for alias in scan.aliases { aliasesByModule[alias.module, default: [:]][alias.path.joined(separator: ".")] = alias }
    }

    /// The handler protocols asked for with `- Handlers:`, by module (filled by ``analyze()``).
    private(set) var handlerProtocols: [(module: String, handlers: HandlerProtocolDescription, file: String)] = []

    /// Analyzes everything; returns the models and methods in declaration order.
    mutating func analyze() -> (models: [ModelDescription], methods: [(module: String, method: MethodDescription, file: String)])
    {
        for conforming in scan.conformingExtensions {
            error(
                conforming.file, conforming.line,
                "`JSONModel` conformance must be declared on `\(conforming.typeName)` itself, not in an extension: the generator reads the stored properties from the type's declaration"
            )
        }
        collectHeaders()
        collectNamedFormats()
        var models: [ModelDescription] = []
        for type in scan.types {
            let id = ModelID(module: type.module, path: type.swiftName)
            guard let header = headers[id] else { continue }
            models.append(describe(header))
        }
        assignDiscriminators(&models)
        var methods: [(String, MethodDescription, String)] = []
        for type in scan.types where isMethod(type) && !isModelDeclaration(type) {
            if let method = describeMethod(type) { methods.append((type.module, method, type.file)) }
        }
        describeHandlerProtocols()
        return (models, methods)
    }

    // MARK: Handler protocols

    /// Finds every protocol tagged `- Handlers: Name` and the methods that conform to it.
    private mutating func describeHandlerProtocols() {
        let rpcMethodProtocols = Self.refinements(of: "RPCMethod", in: scan)
        for type in scan.types where type.kind == .protocol {
            guard let tag = type.doc.value("Handlers") else { continue }
            let protocolName = type.path.last ?? ""
            guard rpcMethodProtocols.contains(protocolName) else {
                error(
                    type.file, tag.line,
                    "`- Handlers:` belongs on a protocol that refines `RPCMethod`; `\(type.swiftName)` does not")
                continue
            }
            let name = tag.value
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), name.first?.isLetter == true else {
                error(type.file, tag.line, "`- Handlers: \(tag.value)` needs a Swift type name")
                continue
            }
            let conformers = Self.refinements(of: protocolName, in: scan)
            var handled: [HandledMethod] = []
            var handlerLines: [String: Int] = [:]
            var access = effectiveAccess(type)
            for method in scan.types
            where method.module == type.module && method.kind != .protocol
                && method.inherited.contains(where: conformers.contains)
            {
                let handlerName = Self.handlerName(of: method.path.last ?? method.swiftName)
                if let previous = handlerLines[handlerName] {
                    error(
                        method.file, method.line,
                        "the handler of `\(method.swiftName)` would be `\(handlerName)`, already the handler of the method on line \(previous); rename one of the types"
                    )
                    continue
                }
                handlerLines[handlerName] = method.line
                access = min(access, effectiveAccess(method))
                let runsInline = MethodTraitsSyntax.listed(in: method)?.contains("runsInline") == true
                let rpcName = method.properties.first { $0.isStatic && $0.name == "name" }?.initializer?
                    .as(StringLiteralExprSyntax.self)?.representedLiteralValue
                handled.append(
                    HandledMethod(
                        swiftName: method.swiftName, rpcName: rpcName, handlerName: handlerName,
                        runsInline: runsInline))
            }
            if handled.isEmpty {
                error(type.file, tag.line, "`- Handlers: \(name)`: no method of \(type.module) conforms to `\(protocolName)`")
                continue
            }
            handlerProtocols.append(
                (
                    type.module,
                    HandlerProtocolDescription(
                        name: name, methodProtocol: protocolName, access: access, methods: handled, order: type.order), type.file
                ))
        }
    }

    /// `base` and every scanned protocol that refines it, directly or through another.
    private static func refinements(of base: String, in scan: ScanResult) -> Set<String> {
        var names: Set<String> = [base]
        let protocols = scan.types.filter { $0.kind == .protocol }
        var changed = true
        while changed {
            changed = false
            for type in protocols where !names.contains(type.path.last ?? "") && type.inherited.contains(where: names.contains) {
                names.insert(type.path.last ?? "")
                changed = true
            }
        }
        return names
    }

    /// The type's name with its first word lowercased, as Swift names methods: `ExecutePayment`
    /// → `executePayment`, `URLOpen` → `urlOpen`, `OpenURL` → `openURL`.
    static func handlerName(of typeName: String) -> String {
        let characters = Array(typeName)
        var upper = 0
        while upper < characters.count, characters[upper].isUppercase { upper += 1 }
        if upper == 0 { return typeName }
        // In a run of capitals followed by a lowercase letter, the last capital starts the next word.
        let lowered = upper > 1 && upper < characters.count ? upper - 1 : upper
        return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
    }

    // MARK: Diagnostics

    private mutating func error(_ file: String, _ line: Int, _ message: String) {
        diagnostics.append(CodegenDiagnostic(file: file, line: line, message: message))
    }

    // MARK: Finding models

    private func isModelDeclaration(_ type: ScannedType) -> Bool { type.inherited.contains("JSONModel") }

    private func isMethod(_ type: ScannedType) -> Bool {
        type.kind != .protocol && type.inherited.contains { methodProtocols.contains($0) }
    }

    /// `RPCMethod`, `RPCNotification` and the scanned protocols that refine them (a service's
    /// `protocol TatraMethod: RPCMethod`), whose conformers are methods too.
    private let methodProtocols: Set<String>

    private static func methodProtocols(in scan: ScanResult) -> Set<String> {
        refinements(of: "RPCMethod", in: scan).union(refinements(of: "RPCNotification", in: scan))
    }

    private func effectiveAccess(_ type: ScannedType) -> AccessLevel {
        var access = type.access ?? .internal
        for length in 1..<max(type.path.count, 1) {
            let parentName = type.path.prefix(length).joined(separator: ".")
            if let parent = typesByModule[type.module]?[parentName] { access = min(access, parent.access ?? .internal) }
        }
        return access
    }

    private mutating func collectHeaders() {
        var definitionOwners: [String: ScannedType] = [:]
        for type in scan.types where isModelDeclaration(type) && type.kind != .protocol {
            guard type.kind == .struct || type.kind == .enum else {
                error(
                    type.file, type.line,
                    "`\(type.swiftName)` is a \(type.kind.rawValue): models are structs or enums (value types the codec can build member by member)"
                )
                continue
            }
            if type.isGeneric {
                error(
                    type.file, type.line,
                    "`\(type.swiftName)` is generic: a generic model has no single schema; declare a concrete model per use")
                continue
            }
            let access = effectiveAccess(type)
            if access < .internal {
                error(
                    type.file, type.line,
                    "`\(type.swiftName)` is \(access): the generated codec lives in another file and cannot see it; make it internal or wider"
                )
                continue
            }
            guard let shape = type.hasHandWrittenCodec ? .handWritten : shape(of: type) else { continue }
            var schemaName = type.path.joined()
            if let tag = type.doc.value("SchemaName") {
                guard !tag.value.isEmpty, !tag.value.contains("/"), !tag.value.contains(" ") else {
                    error(type.file, tag.line, "`- SchemaName:` needs a name without spaces or slashes")
                    continue
                }
                schemaName = tag.value
            }
            let prefix = prefixes[type.module] ?? type.module
            let definitionName = "\(prefix).\(schemaName)"
            if let owner = definitionOwners[definitionName] {
                error(
                    type.file, type.line,
                    "`\(type.swiftName)` has the definition name `\(definitionName)`, already used by `\(owner.swiftName)` at \(owner.file):\(owner.line); rename one with `- SchemaName:`"
                )
                continue
            }
            definitionOwners[definitionName] = type
            let id = ModelID(module: type.module, path: type.swiftName)
            headers[id] = ModelHeader(id: id, type: type, shape: shape, definitionName: definitionName, access: access)
        }
    }

    private mutating func shape(of type: ScannedType) -> ModelShape? {
        if let member = type.unsupportedMembers.first {
            error(type.file, member.line, member.reason)
            return nil
        }
        if type.kind == .struct { return .object }
        guard !type.cases.isEmpty else {
            error(type.file, type.line, "enum `\(type.swiftName)` has no cases: there is no value to encode")
            return nil
        }
        let withPayload = type.cases.filter { $0.parameters != nil }
        if withPayload.isEmpty {
            let rawTypes = type.inherited.filter {
                [
                    "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
                    "Character",
                ].contains($0)
            }
            if let raw = rawTypes.first {
                error(
                    type.file, type.line,
                    "enum `\(type.swiftName)` has \(raw) raw values: only String enums (or enums without raw values) are supported"
                )
                return nil
            }
            return .stringEnum
        }
        if withPayload.count != type.cases.count {
            let plain = type.cases.first { $0.parameters == nil }!
            error(
                type.file, plain.line,
                "enum `\(type.swiftName)` mixes cases without associated values (`\(plain.name)`) and cases with one: a union's cases must each carry one model"
            )
            return nil
        }
        if type.inherited.contains("String") {
            error(type.file, type.line, "enum `\(type.swiftName)` has associated values and a raw type")
            return nil
        }
        return .union
    }

    // MARK: Named formats

    /// `Module.Name` of a typealias.
    private static func formatKey(_ alias: ScannedAlias) -> String {
        alias.module + "." + alias.path.joined(separator: ".")
    }

    /// The type a typealias is declared in (its names resolve from there), or a stand-in for
    /// the module's top level.
    private func scope(of alias: ScannedAlias) -> ScannedType {
        typesByModule[alias.module]?[alias.path.dropLast().joined(separator: ".")]
            ?? ScannedType(
                module: alias.module, file: alias.file, line: alias.line, path: Array(alias.path.dropLast()),
                kind: .struct, inherited: [], access: nil, doc: DocComment(lines: []), isGeneric: false, order: 0)
    }

    /// Whether a typealias declares a named format: it carries a constraint or example tag.
    private static func declaresFormat(_ alias: ScannedAlias) -> Bool {
        alias.doc.tags.contains { NamedFormat.tags.contains($0.name) }
    }

    /// Reads every typealias that declares a named format (``NamedFormat``): a `String` with a
    /// summary that names it, constraints, and one example that is itself a value of the format.
    private mutating func collectNamedFormats() {
        for alias in scan.aliases where Self.declaresFormat(alias) {
            let name = alias.path.joined(separator: ".")
            let doc = alias.doc
            for tag in doc.misspelledTags {
                error(alias.file, tag.line, "unknown tag `- \(tag.value):`; did you mean `- \(tag.name):`?")
            }
            var valid = true
            for tag in doc.tags where !NamedFormat.tags.contains(tag.name) {
                error(alias.file, tag.line, "`- \(tag.name):` does not apply to a named format (`\(name)`)")
                valid = false
            }
            guard let target = resolve(alias.type, in: scope(of: alias), line: alias.line) else { continue }
            guard target == .string else {
                error(
                    alias.file, alias.line,
                    "the named format `\(name)` must be a typealias of String: constraint tags on a typealias name a string format"
                )
                continue
            }
            let summary = NamedFormat.summaryWords(doc.summary)
            if summary.isEmpty {
                error(
                    alias.file, alias.line,
                    "the named format `\(name)` needs a summary that names it, which clients read when a value breaks it: `/// An order ID: 17 capital letters or digits.`"
                )
                valid = false
            }
            let examples = doc.values("Example")
            guard examples.count == 1, case .string(let example)? = SchemaJSON.parse(examples[0].value) else {
                error(
                    alias.file, examples.first?.line ?? alias.line,
                    "the named format `\(name)` needs one `- Example:` with a JSON string, which clients read when a value breaks it"
                )
                continue
            }
            var members: [(String, SchemaJSON)] = [("type", .string("string"))]
            for tag in doc.tags where tag.name != "Example" {
                switch tag.name {
                case "Pattern", "Format":
                    guard !tag.value.isEmpty else {
                        error(alias.file, tag.line, "`- \(tag.name):` needs a value")
                        valid = false
                        continue
                    }
                    members.append((Self.keyword(forTag: tag.name), .string(tag.value)))
                case "Sensitive":
                    guard let value = sensitiveValue(tag, file: alias.file, string: true) else {
                        valid = false
                        continue
                    }
                    members.append((Self.keyword(forTag: tag.name), value))
                default:
                    guard let count = Int(tag.value), count >= 0 else {
                        error(alias.file, tag.line, "`- \(tag.name): \(tag.value)` needs a non-negative integer")
                        valid = false
                        continue
                    }
                    members.append((Self.keyword(forTag: tag.name), .number(String(count))))
                }
            }
            guard valid else { continue }
            let constraints = SchemaJSON.sortedObject(members)
            let problems = NamedFormat.problems(of: example, against: constraints)
            if !problems.isEmpty {
                error(
                    alias.file, examples[0].line,
                    "the example of `\(name)` is not a value of the format: \(problems.joined(separator: "; "))")
                continue
            }
            let words = NamedFormat.words(summary: summary, example: example)
            guard words.count <= NamedFormat.maximumWordsLength else {
                error(
                    alias.file, alias.line,
                    "the words of `\(name)` have \(words.count) characters (\(words)); a message quotes at most \(NamedFormat.maximumWordsLength): shorten its summary or example"
                )
                continue
            }
            namedFormats[Self.formatKey(alias)] = NamedFormat(
                swiftName: name, schema: .sortedObject(members + [(FormatWords.keyword, .string(words))]))
        }
    }

    // MARK: Describing models

    private mutating func describe(_ header: ModelHeader) -> ModelDescription {
        var model = ModelDescription(header: header)
        let type = header.type
        if header.shape == .handWritten { return model }
        checkTags(type.doc, file: type.file, allowed: ["SchemaName", "Deprecated", "Example", "OtherMembers"], what: "a type")
        if let tag = type.doc.value("OtherMembers") {
            if header.shape != .object {
                error(type.file, tag.line, "`- OtherMembers:` belongs on a struct: `\(type.swiftName)` is not one")
            } else if tag.value != "ignored" {
                error(
                    type.file, tag.line,
                    "`- OtherMembers: \(tag.value)`: the one choice is `ignored` (members not declared are skipped when reading)")
            } else {
                model.ignoresOtherMembers = true
            }
        }
        var members: [(String, SchemaJSON)] = annotations(type.doc, file: type.file)
        switch header.shape {
        case .object:
            var properties: [(String, SchemaJSON)] = []
            var required: [SchemaJSON] = []
            var aliasRules: [SchemaJSON] = []
            var aliasDependencies: [(String, SchemaJSON)] = []
            var keys: [String: Int] = [:]
            let stored = type.properties.filter { !$0.isStatic && !$0.isComputed }
            if stored.isEmpty, type.properties.contains(where: { !$0.isStatic && $0.isComputed }) {
                error(
                    type.file, type.line,
                    "struct `\(type.swiftName)` has only computed properties: a model's members are its stored properties")
            }
            for property in stored {
                guard let field = describeField(property, in: type) else { continue }
                if let previous = keys[field.key] {
                    error(type.file, property.line, "member `\(field.key)` is also the key of the property on line \(previous)")
                    continue
                }
                keys[field.key] = property.line
                var accepted = field
                accepted.aliases = []
                for alias in field.aliases {
                    if let previous = keys[alias.key] {
                        error(
                            type.file, property.line, "alias `\(alias.key)` is also the key of the property on line \(previous)")
                        continue
                    }
                    keys[alias.key] = property.line
                    accepted.aliases.append(alias)
                    properties.append((alias.key, aliasSchema(alias, of: field)))
                }
                model.fields.append(accepted)
                properties.append((field.key, field.schema))
                if !accepted.aliases.isEmpty {
                    if let requirement = aliasRequirement(of: accepted) { aliasRules.append(requirement) }
                    aliasDependencies += aliasExclusions(of: accepted)
                } else if field.isRequired {
                    required.append(.string(field.key))
                }
            }
            members.append(("type", .string("object")))
            if !model.ignoresOtherMembers { members.append(("additionalProperties", .bool(false))) }
            members.append(("properties", .sortedObject(properties)))
            if !required.isEmpty { members.append(("required", .array(required))) }
            if aliasRules.count == 1 { members += aliasRules[0].objectMembers ?? [] }
            if aliasRules.count > 1 { members.append(("allOf", .array(aliasRules))) }
            if !aliasDependencies.isEmpty { members.append(("dependencies", .sortedObject(aliasDependencies))) }
        case .stringEnum:
            for enumCase in type.cases {
                var value = enumCase.name
                if let raw = enumCase.rawValue {
                    guard let literal = raw.as(StringLiteralExprSyntax.self)?.representedLiteralValue else {
                        error(type.file, enumCase.line, "the raw value of case `\(enumCase.name)` must be a plain string literal")
                        continue
                    }
                    value = literal
                }
                model.enumValues.append((enumCase.name, value))
            }
            members.append(("type", .string("string")))
            members.append(("enum", .array(model.enumValues.map { .string($0.value) })))
        case .union:
            var refs: [SchemaJSON] = []
            for enumCase in type.cases {
                let parameters = enumCase.parameters ?? []
                guard parameters.count == 1, parameters[0].label == nil else {
                    error(
                        type.file, enumCase.line,
                        "case `\(enumCase.name)` of union `\(type.swiftName)` must carry exactly one unlabeled model (`case \(enumCase.name)(SomeModel)`)"
                    )
                    continue
                }
                guard let resolved = resolve(parameters[0].type, in: type, line: enumCase.line) else { continue }
                guard case .model(let payload) = resolved, headers[payload]?.shape == .object else {
                    error(
                        type.file, enumCase.line,
                        "case `\(enumCase.name)` of union `\(type.swiftName)` carries `\(parameters[0].type.trimmedDescription)`: a union case must carry a struct model, told apart from the others by a required member"
                    )
                    continue
                }
                model.unionCases.append(UnionCase(name: enumCase.name, payload: payload, discriminator: ""))
                refs.append(reference(payload))
            }
            members.append(("oneOf", .array(refs)))
        case .handWritten:
            break
        }
        model.schema = .sortedObject(members)
        return model
    }

    /// `description`, `deprecated` and `examples` from a doc comment.
    private mutating func annotations(_ doc: DocComment, file: String) -> [(String, SchemaJSON)] {
        var members: [(String, SchemaJSON)] = []
        var description = doc.text
        if let deprecated = doc.value("Deprecated") {
            members.append(("deprecated", .bool(true)))
            if !deprecated.value.isEmpty {
                description += (description.isEmpty ? "" : "\n\n") + "Deprecated: " + deprecated.value
            }
        }
        if !description.isEmpty { members.append(("description", .string(description))) }
        let examples = doc.values("Example").compactMap { tag -> SchemaJSON? in
            guard let value = SchemaJSON.parse(tag.value) else {
                error(file, tag.line, "`- Example: \(tag.value)` is not a JSON value (write strings in double quotes)")
                return nil
            }
            return value
        }
        if !examples.isEmpty { members.append(("examples", .array(examples))) }
        return members
    }

    private mutating func checkTags(_ doc: DocComment, file: String, allowed: Set<String>, what: String) {
        for tag in doc.misspelledTags {
            error(file, tag.line, "unknown tag `- \(tag.value):`; did you mean `- \(tag.name):`?")
        }
        for tag in doc.tags where !allowed.contains(tag.name) {
            error(file, tag.line, "`- \(tag.name):` does not apply to \(what)")
        }
    }

    private mutating func describeField(_ property: ScannedProperty, in type: ScannedType) -> FieldDescription? {
        let file = type.file
        if property.isLazy {
            error(
                file, property.line,
                "`lazy var \(property.name)` cannot be decoded; make it a plain stored property or a computed one")
            return nil
        }
        if let attribute = property.attribute {
            error(
                file, property.line,
                "`\(property.name)` has the attribute `\(attribute)`: property wrappers and attributes on model fields are not supported"
            )
            return nil
        }
        if let access = property.writeAccess, access < .internal {
            error(
                file, property.line,
                "`\(property.name)` can only be set from its own file (\(access)): the generated decoder in another file must assign it; make it `internal(set)` or wider"
            )
            return nil
        }
        if property.isLet, property.initializer != nil {
            error(
                file, property.line,
                "`let \(property.name)` has an initial value, so it is a constant that cannot be decoded; make it `var` (a default) or `static let` (not part of the JSON)"
            )
            return nil
        }
        guard let typeSyntax = property.type else {
            error(file, property.line, "`\(property.name)` needs an explicit type annotation: the generator does not infer types")
            return nil
        }
        guard !property.name.contains(" "), !property.name.contains("(") else {
            error(file, property.line, "`\(property.name)`: destructuring patterns are not supported in models")
            return nil
        }
        checkTags(property.doc, file: file, allowed: Set(DocComment.knownTags).subtracting(["SchemaName"]), what: "a property")
        guard var resolved = resolve(typeSyntax, in: type, line: property.line) else { return nil }
        var isOptional = false
        if case .optional(let wrapped) = resolved {
            if case .optional = wrapped {
                error(file, property.line, "`\(property.name)` is a double optional: JSON cannot tell its two kinds of nil apart")
                return nil
            }
            isOptional = true
            resolved = wrapped
        }
        let key = property.doc.value("Key")?.value ?? property.name
        if key.isEmpty {
            error(file, property.line, "`- Key:` needs a member name")
            return nil
        }
        let base = schema(of: resolved)
        var members: [(String, SchemaJSON)] = base.objectMembers ?? []
        if members.contains(where: { $0.0 == FormatWords.keyword }),
            let tag = property.doc.tags.first(where: { ["Pattern", "Format", "MinLength", "MaxLength"].contains($0.name) })
        {
            error(
                file, tag.line,
                "`- \(tag.name):` would change the format `\(typeSyntax.trimmedDescription)` declares, and its words would no longer say what the field takes; declare another named format"
            )
            return nil
        }
        members.removeAll { member in
            // Tags override the type's own keywords.
            let overridden = property.doc.tags.map { Self.keyword(forTag: $0.name) }
            return overridden.contains(member.0)
        }
        var extras = annotations(property.doc, file: file)
        if property.isDeprecatedByAttribute, !extras.contains(where: { $0.0 == "deprecated" }) {
            extras.append(("deprecated", .bool(true)))
        }
        for tag in property.doc.tags {
            guard let value = constraint(tag, type: resolved, property: property, file: file) else { continue }
            extras.append((Self.keyword(forTag: tag.name), value))
        }
        if let defaultTag = property.doc.value("Default") {
            if property.initializer == nil {
                error(
                    file, defaultTag.line,
                    "`- Default:` documents the initial value, but `\(property.name)` has none; give it one in Swift (the decoder uses it when the member is absent)"
                )
            } else if let value = SchemaJSON.parse(defaultTag.value) {
                extras.append(("default", value))
            } else {
                error(
                    file, defaultTag.line, "`- Default: \(defaultTag.value)` is not a JSON value (write strings in double quotes)"
                )
            }
        } else if let initializer = property.initializer, let value = literalJSON(initializer, type: resolved) {
            extras.append(("default", value))
        }
        let schema: SchemaJSON
        if case .runtimeReference = base {
            // A hand-written model's schema is known only at run time.
            schema = extras.isEmpty ? base : .sortedObject([("allOf", .array([base]))] + extras)
        } else if members.contains(where: { $0.0 == "$ref" }), !extras.isEmpty {
            // Draft-07 ignores a `$ref`'s siblings; wrap the reference so the keywords count.
            schema = .sortedObject([("allOf", .array([.object(members)]))] + extras)
        } else {
            schema = .sortedObject(members + extras)
        }
        var field = FieldDescription(
            name: property.name, key: key, type: resolved, isOptional: isOptional,
            hasInitialValue: property.initializer != nil, schema: schema, line: property.line)
        for tag in property.doc.values("Alias") {
            guard let alias = fieldAlias(tag, of: field, file: file) else { continue }
            field.aliases.append(alias)
        }
        return field
    }

    /// Reads `- Alias: name` of `field`, optionally followed by whose spelling it is and
    /// whether it carries one element, in parentheses: `recepient (Android)`,
    /// `phone (Android, one element)`, `phone (one element)`.
    private mutating func fieldAlias(_ tag: DocComment.Tag, of field: FieldDescription, file: String) -> FieldAlias? {
        var value = Substring(tag.value)
        var isOneElement = false
        var owner: String?
        var wellFormed = true
        if value.hasSuffix(")"), let open = value.lastIndex(of: "(") {
            for item in value[value.index(after: open)..<value.index(before: value.endIndex)].split(separator: ",") {
                let text = item.trimmed
                if text == "one element" {
                    isOneElement = true
                } else if owner == nil, !text.isEmpty, !text.contains("\"") {
                    owner = text
                } else {
                    wellFormed = false
                }
            }
            value = value[..<open]
        }
        let key = value.trimmed
        guard wellFormed, !key.isEmpty, !key.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "(" }) else {
            error(
                file, tag.line,
                "`- Alias: \(tag.value)` needs one member name, optionally followed by whose spelling it is and `one element` in parentheses: `- Alias: phone (Android, one element)`"
            )
            return nil
        }
        if key == field.key {
            error(file, tag.line, "`- Alias: \(key)` is the member's own name")
            return nil
        }
        if isOneElement, case .array = field.type {
        } else if isOneElement {
            error(file, tag.line, "`- Alias: \(key) (one element)` needs an array property: `\(field.name)` is not one")
            return nil
        }
        return FieldAlias(key: key, isOneElement: isOneElement, owner: owner)
    }

    /// The schema of an alias member: the field's own (or its element's), described as the
    /// other spelling.
    private func aliasSchema(_ alias: FieldAlias, of field: FieldDescription) -> SchemaJSON {
        var base = field.schema
        let spelling = alias.owner.map { "\($0)'s spelling" } ?? "Another spelling"
        var note = "\(spelling) of `\(field.key)` (the same value); give one of the two."
        if alias.isOneElement, case .array(let element) = field.type {
            base = schema(of: element)
            // The element is as secret as the array it stands for.
            if let mark = field.schema.objectMembers?.first(where: { $0.0 == SensitiveStyle.keyword }),
                let members = base.objectMembers, !members.contains(where: { $0.0 == SensitiveStyle.keyword })
            {
                base = .sortedObject(members + [mark])
            }
            note =
                "\(spelling) of `\(field.key)` carrying one element of it: `\"\(alias.key)\": x` reads as `\"\(field.key)\": [x]`; give one of the two."
        }
        let members = (base.objectMembers ?? [("allOf", .array([base]))]).filter { $0.0 != "description" && $0.0 != "examples" }
        return .sortedObject(members + [("description", .string(note))])
    }

    /// The rule that one of a required field's spellings is given: `anyOf` of their `required`,
    /// the field's own first, so a request with it stops at the first branch. An alias's branch
    /// says whose spelling it is (`x-spelling`), for the validator's message when none is given.
    private func aliasRequirement(of field: FieldDescription) -> SchemaJSON? {
        guard field.isRequired else { return nil }
        var branches: [SchemaJSON] = [.object([("required", .array([.string(field.key)]))])]
        for alias in field.aliases {
            var branch: [(String, SchemaJSON)] = [("required", .array([.string(alias.key)]))]
            if let owner = alias.owner { branch.append(("x-spelling", .string(owner))) }
            branches.append(.object(branch))
        }
        return .object([("anyOf", .array(branches))])
    }

    /// The rule that the spellings are not given together, as `dependencies`: an alias present
    /// forbids the other spellings. Checked only when an alias is present, so a request in the
    /// canonical spelling pays nothing for it.
    private func aliasExclusions(of field: FieldDescription) -> [(String, SchemaJSON)] {
        let keys = [field.key] + field.aliases.map(\.key)
        return field.aliases.map { alias in
            let others = keys.filter { $0 != alias.key }.map { SchemaJSON.object([("required", .array([.string($0)]))]) }
            let forbidden: SchemaJSON = others.count == 1 ? others[0] : .object([("anyOf", .array(others))])
            return (alias.key, .object([("not", forbidden)]))
        }
    }

    static func keyword(forTag tag: String) -> String {
        switch tag {
        case "Pattern": return "pattern"
        case "MinLength": return "minLength"
        case "MaxLength": return "maxLength"
        case "Minimum": return "minimum"
        case "Maximum": return "maximum"
        case "ExclusiveMinimum": return "exclusiveMinimum"
        case "ExclusiveMaximum": return "exclusiveMaximum"
        case "MultipleOf": return "multipleOf"
        case "MinItems": return "minItems"
        case "MaxItems": return "maxItems"
        case "Format": return "format"
        case "Sensitive": return SensitiveStyle.keyword
        default: return ""
        }
    }

    /// The schema value of a constraint tag, after checking it fits the field's type.
    private mutating func constraint(_ tag: DocComment.Tag, type: FieldType, property: ScannedProperty, file: String)
        -> SchemaJSON?
    {
        let isString: Bool
        switch type {
        case .string, .amount, .currency, .date, .url, .formatted: isString = true
        default: isString = false
        }
        let isNumber: Bool
        switch type {
        case .int, .int64, .int32, .uint, .double: isNumber = true
        default: isNumber = false
        }
        var isArray = false
        if case .array = type { isArray = true }
        func fits(_ ok: Bool, _ kind: String) -> Bool {
            if !ok { error(file, tag.line, "`- \(tag.name):` applies to \(kind) values, but `\(property.name)` is not one") }
            return ok
        }
        switch tag.name {
        case "Pattern", "Format":
            guard fits(isString, "string"), !tag.value.isEmpty else { return nil }
            return .string(tag.value)
        case "MinLength", "MaxLength", "MinItems", "MaxItems":
            guard fits(tag.name.hasSuffix("Items") ? isArray : isString, tag.name.hasSuffix("Items") ? "array" : "string") else {
                return nil
            }
            guard let count = Int(tag.value), count >= 0 else {
                error(file, tag.line, "`- \(tag.name): \(tag.value)` needs a non-negative integer")
                return nil
            }
            return .number(String(count))
        case "Sensitive":
            return sensitiveValue(tag, file: file, string: isString, property: property.name)
        case "Minimum", "Maximum", "ExclusiveMinimum", "ExclusiveMaximum", "MultipleOf":
            guard fits(isNumber, "number") else { return nil }
            guard SchemaJSON.isNumber(tag.value) else {
                error(file, tag.line, "`- \(tag.name): \(tag.value)` needs a JSON number")
                return nil
            }
            return .number(tag.value)
        default:
            return nil
        }
    }

    /// The value of `x-sensitive` that `- Sensitive` (a secret, masked whole: `true`) or
    /// `- Sensitive: last4` (a card number: `"last4"`) declares; nil, reported, for any other value
    /// or for `last4` on what is not a string.
    private mutating func sensitiveValue(_ tag: DocComment.Tag, file: String, string: Bool, property: String? = nil)
        -> SchemaJSON?
    {
        switch tag.value {
        case "":
            return .bool(true)
        case "last4":
            guard string else {
                error(
                    file, tag.line,
                    "`- Sensitive: last4` keeps the last four characters of a string, but `\(property ?? "")` is not one; write `- Sensitive` to mask it whole"
                )
                return nil
            }
            return .string("last4")
        default:
            error(
                file, tag.line,
                "`- Sensitive: \(tag.value)` is not a way to mask: write `- Sensitive` (a secret, masked whole) or `- Sensitive: last4` (a card number: all but its last four characters masked)"
            )
            return nil
        }
    }

    /// The JSON of a literal initializer, or nil when it is not a literal the generator can read
    /// (the schema then has no `default`; the decoder still uses the initializer).
    private func literalJSON(_ expression: ExprSyntax, type: FieldType) -> SchemaJSON? {
        if let string = expression.as(StringLiteralExprSyntax.self) {
            return string.representedLiteralValue.map { .string($0) }
        }
        if let bool = expression.as(BooleanLiteralExprSyntax.self) {
            return .bool(bool.literal.text == "true")
        }
        if let integer = expression.as(IntegerLiteralExprSyntax.self) {
            let text = integer.literal.text.replacingUnderscores
            return SchemaJSON.isNumber(text) ? .number(text) : nil
        }
        if let float = expression.as(FloatLiteralExprSyntax.self) {
            let text = float.literal.text.replacingUnderscores
            return SchemaJSON.isNumber(text) ? .number(text) : nil
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
            case .number(let text)? = literalJSON(prefix.expression, type: type)
        {
            return .number("-" + text)
        }
        if let array = expression.as(ArrayExprSyntax.self), case .array(let element) = type {
            var values: [SchemaJSON] = []
            for item in array.elements {
                guard let value = literalJSON(item.expression, type: element) else { return nil }
                values.append(value)
            }
            return .array(values)
        }
        if let dictionary = expression.as(DictionaryExprSyntax.self), case .dictionary(let value) = type {
            switch dictionary.content {
            case .colon: return .object([])
            case .elements(let elements):
                var members: [(String, SchemaJSON)] = []
                for element in elements {
                    guard let key = element.key.as(StringLiteralExprSyntax.self)?.representedLiteralValue,
                        let item = literalJSON(element.value, type: value)
                    else { return nil }
                    members.append((key, item))
                }
                return .sortedObject(members)
            }
        }
        if let member = expression.as(MemberAccessExprSyntax.self), case .model(let id) = type,
            let header = headers[id], header.shape == .stringEnum,
            let enumCase = header.type.cases.first(where: { $0.name == member.declName.baseName.identifierName })
        {
            if let raw = enumCase.rawValue {
                return raw.as(StringLiteralExprSyntax.self)?.representedLiteralValue.map { .string($0) }
            }
            return .string(enumCase.name)
        }
        return nil
    }

    // MARK: Types

    /// The schema of a field type where it appears (models by reference).
    func schema(of type: FieldType) -> SchemaJSON {
        switch type {
        case .string: return .object([("type", .string("string"))])
        case .bool: return .object([("type", .string("boolean"))])
        case .int, .int64:
            // The range `JSONInteger` decodes (through `Int64`), so the schema accepts what the codec reads.
            return .object([
                ("maximum", .number(String(Int64.max))), ("minimum", .number(String(Int64.min))), ("type", .string("integer")),
            ])
        case .int32:
            return .object([
                ("maximum", .number(String(Int32.max))), ("minimum", .number(String(Int32.min))), ("type", .string("integer")),
            ])
        case .uint:
            return .object([("maximum", .number(String(Int64.max))), ("minimum", .number("0")), ("type", .string("integer"))])
        case .double: return .object([("type", .string("number"))])
        case .amount:
            return .object([
                ("pattern", .string(ModelAnalyzer.decimalPattern)), ("type", .string("string")),
                (FormatWords.keyword, .string(NamedFormat.amount)),
            ])
        case .currency:
            return .object([
                ("pattern", .string(Currency.codePattern)), ("type", .string("string")),
                (FormatWords.keyword, .string(NamedFormat.currency)),
            ])
        case .formatted(let key): return namedFormats[key]?.schema ?? .object([("type", .string("string"))])
        case .date: return .object([("format", .string("date-time")), ("type", .string("string"))])
        case .url: return .object([("format", .string("uri")), ("type", .string("string"))])
        case .any: return .object([])
        case .array(let element): return .object([("items", schema(of: element)), ("type", .string("array"))])
        case .dictionary(let value): return .object([("additionalProperties", schema(of: value)), ("type", .string("object"))])
        case .optional(let wrapped):
            return .object([("anyOf", .array([schema(of: wrapped), .object([("type", .string("null"))])]))])
        case .model(let id):
            if let header = headers[id], header.shape == .handWritten {
                return .runtimeReference(id)
            }
            return reference(id)
        }
    }

    /// PayRPCJSON's, so that the generated schemas and the runtime's ``Amount`` agree.
    static let decimalPattern = Amount.decimalPattern

    func reference(_ id: ModelID) -> SchemaJSON {
        .object([("$ref", .string("#/definitions/" + (headers[id]?.definitionName ?? id.path)))])
    }

    private static let primitives: [String: FieldType] = [
        "String": .string, "Bool": .bool, "Int": .int, "Int64": .int64, "Int32": .int32, "UInt": .uint,
        "Double": .double, "Amount": .amount, "Currency": .currency, "Date": .date, "URL": .url, "JSONValue": .any,
    ]
    private static let qualifiers: Set<String> = ["Swift", "Foundation", "FoundationEssentials", "PayRPCJSON"]

    /// Resolves a field's Swift type; reports and returns nil when it cannot be expressed.
    mutating func resolve(_ syntax: TypeSyntax, in context: ScannedType, line: Int, aliasDepth: Int = 0) -> FieldType? {
        let written = syntax.trimmedDescription
        func unsupported(_ reason: String) -> FieldType? {
            error(context.file, line, "type `\(written)` \(reason)")
            return nil
        }
        if let optional = syntax.as(OptionalTypeSyntax.self) {
            return resolve(optional.wrappedType, in: context, line: line, aliasDepth: aliasDepth).map { .optional($0) }
        }
        if let array = syntax.as(ArrayTypeSyntax.self) {
            return resolve(array.element, in: context, line: line, aliasDepth: aliasDepth).map { .array($0) }
        }
        if let dictionary = syntax.as(DictionaryTypeSyntax.self) {
            guard let key = DeclarationScanner.namePath(dictionary.key), key.last == "String",
                key.count == 1 || Self.qualifiers.contains(key[0])
            else {
                return unsupported("has keys that are not String: JSON object keys are strings")
            }
            return resolve(dictionary.value, in: context, line: line, aliasDepth: aliasDepth).map { .dictionary($0) }
        }
        if syntax.is(TupleTypeSyntax.self) { return unsupported("is a tuple: JSON has no tuples; declare a model struct") }
        if let path = DeclarationScanner.namePath(syntax), path.last == "Decimal",
            path.count == 1 || Self.qualifiers.contains(path[0])
        {
            return unsupported(
                "is Foundation's Decimal: use Amount (PayRPCJSON), an exact decimal read straight from the request's bytes, with Currency when it is money"
            )
        }
        if syntax.is(FunctionTypeSyntax.self) { return unsupported("is a function: closures cannot be encoded") }
        if syntax.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return unsupported("is implicitly unwrapped: write `?`") }
        if syntax.is(SomeOrAnyTypeSyntax.self) { return unsupported("is existential or opaque: the codec needs a concrete type") }
        if syntax.is(AttributedTypeSyntax.self) {
            return unsupported("has attributes or specifiers, which models do not support")
        }
        if syntax.is(MetatypeTypeSyntax.self) { return unsupported("is a metatype") }
        if syntax.is(CompositionTypeSyntax.self) { return unsupported("is a protocol composition") }
        // Named types, possibly generic (`Array<T>`, `Optional<T>`, `Dictionary<String, T>`).
        var components: [(String, GenericArgumentClauseSyntax?)] = []
        var current: TypeSyntax? = syntax
        while let node = current {
            if let identifier = node.as(IdentifierTypeSyntax.self) {
                components.insert((identifier.name.identifierName, identifier.genericArgumentClause), at: 0)
                current = nil
            } else if let member = node.as(MemberTypeSyntax.self) {
                components.insert((member.name.identifierName, member.genericArgumentClause), at: 0)
                current = member.baseType
            } else {
                return unsupported("is not supported in a model")
            }
        }
        if components.count > 1,
            Self.qualifiers.contains(components[0].0)
                || prefixes.keys.contains(components[0].0) && components[0].0 == context.module
        {
            components.removeFirst()
        }
        let names = components.map(\.0)
        if let generic = components.last?.1 {
            guard components.dropLast().allSatisfy({ $0.1 == nil }) else { return unsupported("is not supported in a model") }
            let arguments: [TypeSyntax] = generic.arguments.compactMap {
                if case .type(let type) = $0.argument { return type }
                return nil
            }
            switch (names, arguments.count) {
            case (["Array"], 1):
                return resolve(arguments[0], in: context, line: line, aliasDepth: aliasDepth).map { .array($0) }
            case (["Optional"], 1):
                return resolve(arguments[0], in: context, line: line, aliasDepth: aliasDepth).map { .optional($0) }
            case (["Dictionary"], 2):
                guard DeclarationScanner.lastName(arguments[0]) == "String" else {
                    return unsupported("has keys that are not String: JSON object keys are strings")
                }
                return resolve(arguments[1], in: context, line: line, aliasDepth: aliasDepth).map { .dictionary($0) }
            default:
                return unsupported("is generic: only arrays, optionals and String-keyed dictionaries of supported types are")
            }
        }
        // Scanned types and typealiases, innermost scope first, then other modules.
        if let found = lookup(names, from: context) {
            switch found {
            case .type(let type):
                let id = ModelID(module: type.module, path: type.swiftName)
                if headers[id] != nil { return .model(id) }
                if isModelDeclaration(type) { return nil }  // already reported as unsupported
                return unsupported(
                    "names `\(type.swiftName)` (\(type.file):\(type.line)), which is not a model: declare `JSONModel` on it")
            case .alias(let alias):
                if Self.declaresFormat(alias) {
                    // Reported where the format is declared when it is not one.
                    let key = Self.formatKey(alias)
                    return namedFormats[key] == nil ? nil : .formatted(key)
                }
                guard aliasDepth < 16 else { return unsupported("is a typealias cycle") }
                var aliasContext = scope(of: alias)
                aliasContext.file = context.file
                return resolve(alias.type, in: aliasContext, line: line, aliasDepth: aliasDepth + 1)
            case .ambiguous(let modules):
                return unsupported(
                    "is ambiguous: models of that name exist in \(modules.joined(separator: ", ")); qualify it with the module")
            }
        }
        if names.count == 1, let primitive = Self.primitives[names[0]] { return primitive }
        if ["Float", "Int8", "Int16", "UInt8", "UInt16", "UInt32", "UInt64", "Character", "Substring", "Data", "UUID"].contains(
            names.joined())
        {
            return unsupported(
                "is not a supported field type (use String, Bool, Int, Int64, Int32, UInt, Double, Amount, Currency, Date, URL or JSONValue)"
            )
        }
        return unsupported(
            "is unknown: it is neither a model in the scanned modules nor a supported primitive (String, Bool, Int, Int64, Int32, UInt, Double, Amount, Currency, Date, URL, JSONValue)"
        )
    }

    private enum Lookup {
        case type(ScannedType)
        case alias(ScannedAlias)
        case ambiguous([String])
    }

    private func lookup(_ names: [String], from context: ScannedType) -> Lookup? {
        func find(module: String, path: [String]) -> Lookup? {
            let key = path.joined(separator: ".")
            if let type = typesByModule[module]?[key] { return .type(type) }
            if let alias = aliasesByModule[module]?[key] { return .alias(alias) }
            return nil
        }
        // Module-qualified names.
        if names.count > 1, typesByModule[names[0]] != nil || aliasesByModule[names[0]] != nil,
            let found = find(module: names[0], path: Array(names.dropFirst()))
        {
            return found
        }
        var scope = context.path
        while true {
            if let found = find(module: context.module, path: scope + names) { return found }
            if scope.isEmpty { break }
            scope.removeLast()
        }
        let modules = Set(typesByModule.keys).union(aliasesByModule.keys).subtracting([context.module]).sorted()
        let matches = modules.compactMap { module in find(module: module, path: names).map { (module, $0) } }
        if matches.count == 1 { return matches[0].1 }
        if matches.count > 1 { return .ambiguous(matches.map(\.0)) }
        return nil
    }

    // MARK: Unions

    /// Picks, for each union case, the first required member of its payload that no other
    /// case's payload has at all; a union whose cases cannot be told apart that way is an error.
    private mutating func assignDiscriminators(_ models: inout [ModelDescription]) {
        let fieldsByModel = Dictionary(uniqueKeysWithValues: models.map { ($0.header.id, $0.fields) })
        for index in models.indices where models[index].header.shape == .union {
            let type = models[index].header.type
            let cases = models[index].unionCases
            for (position, unionCase) in cases.enumerated() {
                let others = cases.enumerated().filter { $0.offset != position }
                    .flatMap { fieldsByModel[$0.element.payload]?.map(\.key) ?? [] }
                let candidates = (fieldsByModel[unionCase.payload] ?? []).filter(\.isRequired).map(\.key)
                guard let key = candidates.first(where: { !others.contains($0) }) else {
                    let line = type.cases.first { $0.name == unionCase.name }?.line ?? type.line
                    error(
                        type.file, line,
                        "case `\(unionCase.name)` of union `\(type.swiftName)` cannot be told apart from the other cases: its payload `\(unionCase.payload.path)` needs a required member that no other case's payload has"
                    )
                    continue
                }
                models[index].unionCases[position].discriminator = key
            }
        }
    }

    // MARK: Params

    /// The params models of every method (its nested `Params` struct, or the model its `Params`
    /// typealias names): the models the engine decodes requests into, which get checked decoders.
    func paramsModels() -> [ModelID] {
        var roots: [ModelID] = []
        for type in scan.types where isMethod(type) {
            let path = type.path + ["Params"]
            if headers[ModelID(module: type.module, path: path.joined(separator: "."))] != nil {
                roots.append(ModelID(module: type.module, path: path.joined(separator: ".")))
            } else if let alias = aliasesByModule[type.module]?[path.joined(separator: ".")],
                let names = DeclarationScanner.namePath(alias.type),
                case .type(let target)? = lookup(names, from: type)
            {
                let id = ModelID(module: target.module, path: target.swiftName)
                if headers[id] != nil { roots.append(id) }
            }
        }
        return roots
    }

    // MARK: Methods

    private mutating func describeMethod(_ type: ScannedType) -> MethodDescription? {
        guard type.doc.isPresent, !type.doc.summary.isEmpty else {
            error(
                type.file, type.line,
                "method `\(type.swiftName)` has no doc comment: every method and notification needs a `///` summary (its first paragraph), which becomes its OpenRPC summary"
            )
            return nil
        }
        for tag in type.doc.misspelledTags {
            error(type.file, tag.line, "unknown tag `- \(tag.value):`; did you mean `- \(tag.name):`?")
        }
        checkTraits(of: type)
        let access = effectiveAccess(type)
        if access < .internal {
            error(
                type.file, type.line,
                "`\(type.swiftName)` is \(access): the generated documentation lives in another file and cannot see it")
            return nil
        }
        return MethodDescription(
            swiftName: type.swiftName, access: access, summary: type.doc.summary,
            documentation: type.doc.remainder, order: type.order)
    }

    /// A method's traits are one array literal the generator can read (``MethodTraitsSyntax``),
    /// and no trait is declared as a property of its own, which nothing would read.
    private mutating func checkTraits(of type: ScannedType) {
        for property in type.properties where property.isStatic {
            if property.name == "traits", MethodTraitsSyntax.listed(in: type) == nil {
                error(
                    type.file, property.line,
                    "`traits` must be an array literal of `MethodTraits` members (`[.runsInline, .mutates]`): the generator reads `.runsInline` from it"
                )
            } else if MethodTraitsSyntax.names.contains(property.name) {
                error(
                    type.file, property.line,
                    "`static \(property.isLet ? "let" : "var") \(property.name)` is not read: list `.\(property.name)` in the method's `traits: MethodTraits`"
                )
            }
        }
    }
}

extension String {
    var replacingUnderscores: String { filter { $0 != "_" } }
}
