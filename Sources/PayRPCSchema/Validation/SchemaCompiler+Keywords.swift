import PayRPCJSON

/// The keyword families, each turned into ``SchemaCheck``s.
extension SchemaCompiler {
    /// `type`, `enum`, `const`.
    mutating func compileGeneric(_ builder: inout CheckBuilder) throws(SchemaCompileError) {
        if let type = builder.value("type") {
            var set = JSONTypeSet()
            let names: [JSONValue]
            if case .array(let items) = type { names = items } else { names = [type] }
            for name in names {
                guard case .string(let text) = name, let member = JSONTypeSet(name: text) else {
                    throw failure(builder.location, ["type"], "type must be a type name or an array of type names")
                }
                set.insert(member)
            }
            builder.checks.append(.type(set))
        }
        if let values = builder.value("enum") {
            guard case .array(let items) = values else {
                throw failure(builder.location, ["enum"], "enum must be an array")
            }
            builder.checks.append(.enumeration(ConstantValues(items)))
        }
        if let constant = builder.value("const") {
            let values = ConstantValues([constant])
            if !values.elements.isEmpty { builder.checks.append(.constant(values)) }
        }
    }

    /// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`.
    mutating func compileNumeric(_ builder: inout CheckBuilder) throws(SchemaCompileError) {
        for kind in [NumberBound.Kind.minimum, .maximum, .exclusiveMinimum, .exclusiveMaximum] {
            if let value = try number(builder, kind.rawValue) {
                builder.checks.append(.bound(NumberBound(kind: kind, value: value)))
            }
        }
        if let divisor = try number(builder, "multipleOf") {
            guard !divisor.negative, !divisor.isZero else {
                throw failure(builder.location, ["multipleOf"], "multipleOf must be greater than 0")
            }
            builder.checks.append(.multipleOf(divisor))
        }
    }

    /// `minLength`, `maxLength`, `pattern`, `format`.
    mutating func compileString(_ builder: inout CheckBuilder) throws(SchemaCompileError) {
        if let minimum = try count(builder, "minLength") { builder.checks.append(.minLength(minimum)) }
        if let maximum = try count(builder, "maxLength") { builder.checks.append(.maxLength(maximum)) }
        if let pattern = builder.value("pattern") {
            guard case .string(let text) = pattern else {
                throw failure(builder.location, ["pattern"], "pattern must be a string")
            }
            builder.checks.append(.pattern(try regex(text, at: builder.location, ["pattern"])))
        }
        if let format = builder.value("format") {
            guard case .string(let name) = format else {
                throw failure(builder.location, ["format"], "format must be a string")
            }
            if let known = StringFormat(rawValue: name) { builder.checks.append(.format(known)) }
        }
    }

    /// `items`, `additionalItems`, `contains`, `minItems`, `maxItems`, `uniqueItems`.
    mutating func compileArray(_ builder: inout CheckBuilder) throws(SchemaCompileError) {
        if let items = builder.value("items") {
            if case .array(let schemas) = items {
                var ids: [NodeID] = []
                for position in schemas.indices { ids.append(try subschema(builder, "items", String(position))) }
                let additional = builder.value("additionalItems") == nil ? nil : try subschema(builder, "additionalItems")
                builder.checks.append(.tupleItems(ids, additional: additional))
            } else {
                builder.checks.append(.items(try subschema(builder, "items")))
            }
        }
        if builder.value("contains") != nil { builder.checks.append(.contains(try subschema(builder, "contains"))) }
        if let minimum = try count(builder, "minItems") { builder.checks.append(.minItems(minimum)) }
        if let maximum = try count(builder, "maxItems") { builder.checks.append(.maxItems(maximum)) }
        if let unique = builder.value("uniqueItems") {
            guard case .bool(let flag) = unique else {
                throw failure(builder.location, ["uniqueItems"], "uniqueItems must be a boolean")
            }
            if flag { builder.checks.append(.uniqueItems) }
        }
    }

    /// `properties`, `patternProperties`, `additionalProperties`, `required`, `minProperties`,
    /// `maxProperties`, `propertyNames`, `dependencies`.
    mutating func compileObject(_ builder: inout CheckBuilder) throws(SchemaCompileError) {
        var members = MemberSchemas()
        if let properties = builder.value("properties") {
            guard case .object(let entries) = properties else {
                throw failure(builder.location, ["properties"], "properties must be an object of schemas")
            }
            for entry in entries { members.properties.append((entry.name, try subschema(builder, "properties", entry.name))) }
        }
        if let patterns = builder.value("patternProperties") {
            guard case .object(let entries) = patterns else {
                throw failure(builder.location, ["patternProperties"], "patternProperties must be an object of schemas")
            }
            for entry in entries {
                let regex = try regex(entry.name, at: builder.location, ["patternProperties", entry.name])
                members.patterns.append((regex, try subschema(builder, "patternProperties", entry.name)))
            }
        }
        if builder.value("additionalProperties") != nil {
            members.additional = try subschema(builder, "additionalProperties")
        }
        if !members.properties.isEmpty || !members.patterns.isEmpty || members.additional != nil {
            builder.checks.append(.members(members))
        }
        if let required = try strings(builder, "required"), !required.isEmpty {
            builder.checks.append(.required(required))
        }
        if let minimum = try count(builder, "minProperties") { builder.checks.append(.minProperties(minimum)) }
        if let maximum = try count(builder, "maxProperties") { builder.checks.append(.maxProperties(maximum)) }
        if builder.value("propertyNames") != nil {
            builder.checks.append(.propertyNames(try subschema(builder, "propertyNames")))
        }
        if let dependencies = builder.value("dependencies") {
            guard case .object(let entries) = dependencies else {
                throw failure(builder.location, ["dependencies"], "dependencies must be an object")
            }
            var compiled: [(name: String, dependency: SchemaDependency)] = []
            for entry in entries {
                if case .array = entry.value {
                    let names = try strings(builder, "dependencies", extra: [entry.name], value: entry.value) ?? []
                    compiled.append((entry.name, .members(names)))
                } else {
                    compiled.append((entry.name, .schema(try subschema(builder, "dependencies", entry.name))))
                }
            }
            if !compiled.isEmpty { builder.checks.append(.dependencies(compiled)) }
        }
    }

    /// `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`.
    mutating func compileCombinators(_ builder: inout CheckBuilder) throws(SchemaCompileError) {
        if builder.value("allOf") != nil { builder.checks.append(.allOf(try schemaArray(builder, "allOf"))) }
        if builder.value("anyOf") != nil { builder.checks.append(.anyOf(try schemaArray(builder, "anyOf"))) }
        if builder.value("oneOf") != nil { builder.checks.append(.oneOf(try schemaArray(builder, "oneOf"))) }
        if builder.value("not") != nil { builder.checks.append(.not(try subschema(builder, "not"))) }
        if builder.value("if") != nil {
            let condition = try subschema(builder, "if")
            let then = builder.value("then") == nil ? nil : try subschema(builder, "then")
            let otherwise = builder.value("else") == nil ? nil : try subschema(builder, "else")
            if then != nil || otherwise != nil {
                builder.checks.append(.conditional(if: condition, then: then, else: otherwise))
            }
        }
    }
}
