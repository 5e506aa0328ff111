import PayRPCJSON
import PayRPCSchema

/// Builds the OpenRPC document (and the files of `Schemas/`) from the router's method
/// declarations: the one place where the published description of the server is assembled.
public struct OpenRPCBuilder: Sendable {
    /// The router whose methods are described.
    public let router: Router
    /// The server's version, in `info`.
    public let version: String

    public init(router: Router, version: String) {
        self.router = router
        self.version = version
    }

    /// The OpenRPC version written in documents.
    public static let openRPCVersion = "1.2.6"

    /// The whole document, `$ref`s pointing into `components/schemas`.
    public func document() -> JSONValue {
        let definitions = router.allDefinitions
        let methods: [JSONValue] = router.methods.map { method($0) }
        let notifications: [JSONValue] = router.notifications.map { notification($0) }
        let schemas = definitions.schemas.keys.sorted().map {
            JSONValue.Member($0, Self.componentRefs(definitions.schemas[$0]!))
        }
        return .object([
            .init("openrpc", .string(Self.openRPCVersion)),
            .init(
                "info",
                [
                    "title": "payrpc",
                    "version": .string(version),
                    "description":
                        "Five mobile payment SDK interfaces (Tatra banka PayKey, Pay by Bank app, a payment journal, PayPal Northstar, Dotpay) as JSON-RPC 2.0 over newline-delimited JSON. Server-to-client notifications are listed under x-notifications.",
                ]),
            .init("methods", .array(methods)),
            .init("components", ["schemas": .object(schemas)]),
            .init("x-notifications", .array(notifications)),
        ])
    }

    /// One method's entry.
    func method(_ descriptor: MethodDescriptor) -> JSONValue {
        var members = opening(descriptor, paramStructure: "either")
        members.append(.init("result", ["name": "result", "schema": Self.componentRefs(descriptor.resultSchema)]))
        members.append(
            .init(
                "errors",
                .array(
                    descriptor.errors.map { error in
                        var entry: [JSONValue.Member] = [
                            .init("code", .int(error.code)), .init("message", .string(error.message)),
                        ]
                        if let data = error.dataSchema { entry.append(.init("data", Self.componentRefs(data))) }
                        return .object(entry)
                    })))
        members.append(.init("x-aliases", .array(descriptor.aliases.map { .string($0) })))
        members.append(.init("x-mutates", .bool(descriptor.mutates)))
        members.append(.init("x-notifications", .array(descriptor.notifications.map { .string($0) })))
        if descriptor.sandboxOnly { members.append(.init("x-sandbox-only", true)) }
        if descriptor.destructive { members.append(.init("x-destructive", true)) }
        if descriptor.ordered { members.append(.init("x-ordered", true)) }
        return .object(members)
    }

    /// One notification's entry (under `x-notifications`).
    func notification(_ descriptor: NotificationDescriptor) -> JSONValue {
        var members = opening(descriptor, paramStructure: "by-name")
        if !descriptor.aliases.isEmpty { members.append(.init("x-aliases", .array(descriptor.aliases.map { .string($0) }))) }
        return .object(members)
    }

    /// The members a method's and a notification's entry open with: name, summary, description
    /// (when there is one), `paramStructure` and the params as content descriptors.
    private func opening(_ call: some DescribedCall, paramStructure: JSONValue) -> [JSONValue.Member] {
        var members: [JSONValue.Member] = [.init("name", .string(call.name)), .init("summary", .string(call.summary))]
        if !call.documentation.isEmpty { members.append(.init("description", .string(call.documentation))) }
        members.append(.init("paramStructure", paramStructure))
        let params = contentDescriptors(call.paramsSchema, fieldOrder: call.fieldOrder, definitions: call.definitions)
        members.append(.init("params", .array(params)))
        return members
    }

    /// The params of a method as OpenRPC content descriptors: one per member of its params model,
    /// in declaration order, which is the order params given by position map onto. Params that are
    /// one of several objects (`oneOf`, as `northstar.executeOrder`'s two forms) list every form's
    /// members, each required only when every form requires it; the server checks the forms.
    func contentDescriptors(_ schema: JSONValue, fieldOrder: [String], definitions: SchemaDefinitions) -> [JSONValue] {
        let model = Self.resolve(schema, in: definitions)
        if case .array(let forms)? = model["oneOf"] {
            var seen: [String: Int] = [:]
            var merged: [JSONValue] = []
            var requiredCount: [String: Int] = [:]
            for form in forms {
                for entry in contentDescriptors(form, fieldOrder: [], definitions: definitions) {
                    guard let name = entry["name"]?.stringValue else { continue }
                    if entry["required"] == .bool(true) { requiredCount[name, default: 0] += 1 }
                    if seen[name] == nil {
                        seen[name] = merged.count
                        merged.append(entry)
                    }
                }
            }
            return merged.map { entry in
                guard case .object(var members) = entry, let name = entry["name"]?.stringValue else { return entry }
                for index in members.indices where members[index].name == "required" {
                    members[index].value = .bool(requiredCount[name] == forms.count)
                }
                return .object(members)
            }
        }
        guard case .object(let members) = model,
            case .object(let properties)? = members.first(where: { $0.name == "properties" })?.value
        else { return [] }
        var required: Set<String> = []
        if case .array(let names)? = members.first(where: { $0.name == "required" })?.value {
            required = Set(names.compactMap(\.stringValue))
        }
        let position = Dictionary(fieldOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let ordered = properties.enumerated().sorted {
            (position[$0.element.name] ?? fieldOrder.count + $0.offset)
                < (position[$1.element.name] ?? fieldOrder.count + $1.offset)
        }.map(\.element)
        return ordered.map { property in
            var entry: [JSONValue.Member] = [.init("name", .string(property.name))]
            if let description = property.value["description"] { entry.append(.init("description", description)) }
            entry.append(.init("required", .bool(required.contains(property.name))))
            entry.append(.init("schema", Self.componentRefs(property.value)))
            return .object(entry)
        }
    }

    /// Follows a `#/definitions/Name` reference.
    package static func resolve(_ schema: JSONValue, in definitions: SchemaDefinitions) -> JSONValue {
        if let ref = schema["$ref"]?.stringValue, ref.hasPrefix("#/definitions/") {
            return definitions.schemas[String(ref.dropFirst("#/definitions/".count))] ?? schema
        }
        return schema
    }

    /// Rewrites `#/definitions/X` references to `#/components/schemas/X`.
    static func componentRefs(_ schema: JSONValue) -> JSONValue {
        rewriteRefs(schema, from: "#/definitions/", to: "#/components/schemas/")
    }

    package static func rewriteRefs(_ schema: JSONValue, from: String, to: String) -> JSONValue {
        switch schema {
        case .array(let values): return .array(values.map { rewriteRefs($0, from: from, to: to) })
        case .object(let members):
            return .object(
                members.map { member in
                    if member.name == "$ref", let ref = member.value.stringValue, ref.hasPrefix(from) {
                        return .init("$ref", .string(to + ref.dropFirst(from.count)))
                    }
                    return .init(member.name, rewriteRefs(member.value, from: from, to: to))
                })
        default: return schema
        }
    }
}
