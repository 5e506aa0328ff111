import PayRPCJSON

/// Turns a schema document (and the registry's documents it refers to) into a node table.
///
/// Nodes are compiled from a work list: a subschema or `$ref` target gets its table index
/// the first time it is seen (keyed by document and JSON Pointer) and is compiled later, so a
/// recursive `$ref` is just an index and compilation always ends. Only reachable subschemas
/// are compiled (an unused `definitions` entry costs nothing).
struct SchemaCompiler {
    /// The URI a schema without `$id` is known under, so relative `$ref`s still resolve.
    static let defaultRootURI = "payrpc:///schema.json"

    private var index = SchemaIndex()
    private var documentURIs: [String] = []
    private var nodeIDs: [String: NodeID] = [:]
    private var nodes: [SchemaNode?] = []
    private(set) var nodePointers: [String] = []
    /// The nodes' `x-format` and `x-spelling`, for messages.
    private(set) var words = SchemaWords()
    private var pending: [(NodeID, SchemaLocation)] = []
    private let root: SchemaLocation

    init(root document: JSONValue, registry: SchemaRegistry) {
        let rootURI = SchemaURI(Self.defaultRootURI)
        documentURIs = [rootURI.text]
        root = SchemaLocation(
            document: 0, path: [], base: SchemaLocation.base(of: document, inherited: rootURI),
            value: document)
        var documents: [(SchemaURI, JSONValue)] = [(SchemaURI(SchemaRegistry.draft07MetaSchemaURI), Draft07MetaSchema.document)]
        for entry in registry.documents { documents.append((SchemaURI(entry.uri), entry.document)) }
        for (offset, (uri, document)) in documents.enumerated() {
            documentURIs.append(uri.text)
            index.addDocument(document, index: offset + 1, uri: uri)
        }
        index.addDocument(document, index: 0, uri: rootURI)
    }

    /// Compiles every subschema reachable from the root.
    /// - Returns: the node table; the root is node 0.
    mutating func compile() throws(SchemaCompileError) -> [SchemaNode] {
        _ = nodeID(for: root)
        while let (id, location) = pending.popLast() {
            nodes[id] = try compileNode(location)
            if case .checks = nodes[id] { words.record(id, location.value) }
        }
        let table = nodes.compactMap { $0 }
        try SchemaCycleCheck(nodes: table, pointers: nodePointers).run()
        return table
    }

    // MARK: Node table

    private mutating func nodeID(for location: SchemaLocation) -> NodeID {
        let key = location.key
        if let id = nodeIDs[key] { return id }
        let id = nodes.count
        nodeIDs[key] = id
        nodes.append(nil)
        nodePointers.append(pointer(location, []))
        pending.append((id, location))
        return id
    }

    func pointer(_ location: SchemaLocation, _ extra: [String]) -> String {
        let pointer = JSONPointer.pointer(location.path + extra)
        return location.document == 0 ? pointer : documentURIs[location.document] + "#" + pointer
    }

    func failure(_ location: SchemaLocation, _ extra: [String], _ message: String) -> SchemaCompileError {
        SchemaCompileError(pointer: pointer(location, extra), message: message)
    }

    // MARK: One node

    private mutating func compileNode(_ location: SchemaLocation) throws(SchemaCompileError) -> SchemaNode {
        switch location.value {
        case .bool(let value):
            return .always(value)
        case .object:
            if let reference = location.value["$ref"] {
                guard case .string(let text) = reference else {
                    throw failure(location, ["$ref"], "$ref must be a string")
                }
                let target = SchemaURI(text).resolved(against: location.base)
                guard let resolved = index.resolve(target) else {
                    throw failure(location, ["$ref"], "cannot resolve $ref \"\(text)\" (\(target.text))")
                }
                return .reference(nodeID(for: resolved))
            }
            var builder = CheckBuilder(location: location)
            try compileGeneric(&builder)
            try compileNumeric(&builder)
            try compileString(&builder)
            try compileArray(&builder)
            try compileObject(&builder)
            try compileCombinators(&builder)
            return builder.checks.isEmpty ? .always(true) : .checks(builder.checks)
        default:
            throw failure(location, [], "a schema must be an object or a boolean")
        }
    }

    /// The checks of one schema object as they are compiled.
    struct CheckBuilder {
        let location: SchemaLocation
        var checks: [SchemaCheck] = []

        /// The value of `keyword` in the schema object, if present.
        func value(_ keyword: String) -> JSONValue? { location.value[keyword] }
    }

    // MARK: Helpers for keyword compilers

    /// The node for the subschema at `keyword` (and `token`, for arrays and maps).
    mutating func subschema(_ builder: CheckBuilder, _ keyword: String, _ token: String? = nil) throws(SchemaCompileError)
        -> NodeID
    {
        let value: JSONValue?
        if let token {
            switch builder.value(keyword) {
            case .array(let items)?: value = Int(token).flatMap { items.indices.contains($0) ? items[$0] : nil }
            case .object?: value = builder.value(keyword)?[token]
            default: value = nil
            }
        } else {
            value = builder.value(keyword)
        }
        guard let value else { throw failure(builder.location, [keyword], "missing subschema") }
        let location = token.map { builder.location.child(keyword, $0, value) } ?? builder.location.child(keyword, value)
        switch value {
        case .bool, .object: return nodeID(for: location)
        default: throw failure(location, [], "a schema must be an object or a boolean")
        }
    }

    /// The nodes of a non-empty array of subschemas at `keyword`.
    mutating func schemaArray(_ builder: CheckBuilder, _ keyword: String) throws(SchemaCompileError) -> [NodeID] {
        guard case .array(let items)? = builder.value(keyword), !items.isEmpty else {
            throw failure(builder.location, [keyword], "\(keyword) must be a non-empty array of schemas")
        }
        var ids: [NodeID] = []
        for position in items.indices { ids.append(try subschema(builder, keyword, String(position))) }
        return ids
    }

    /// The value of `keyword` as a number.
    func number(_ builder: CheckBuilder, _ keyword: String) throws(SchemaCompileError) -> DecimalNumber? {
        guard let value = builder.value(keyword) else { return nil }
        guard case .number(let text) = value, let number = DecimalNumber(text) else {
            throw failure(builder.location, [keyword], "\(keyword) must be a number")
        }
        return number
    }

    /// The value of `keyword` as a non-negative integer (`2.0` counts), clamped to `Int.max`.
    func count(_ builder: CheckBuilder, _ keyword: String) throws(SchemaCompileError) -> Int? {
        guard let number = try number(builder, keyword) else { return nil }
        guard number.isInteger, !number.negative else {
            throw failure(builder.location, [keyword], "\(keyword) must be a non-negative integer")
        }
        return number.int64.map { Int($0) } ?? Int.max
    }

    /// The value of `keyword` as an array of strings.
    func strings(_ builder: CheckBuilder, _ keyword: String, extra: [String] = [], value: JSONValue? = nil)
        throws(SchemaCompileError) -> [String]?
    {
        guard let value = value ?? builder.value(keyword) else { return nil }
        guard case .array(let items) = value else {
            throw failure(builder.location, [keyword] + extra, "\(keyword) must be an array of strings")
        }
        var names: [String] = []
        for item in items {
            guard case .string(let name) = item else {
                throw failure(builder.location, [keyword] + extra, "\(keyword) must be an array of strings")
            }
            names.append(name)
        }
        return names
    }

    /// A regular expression compiled once, or an error naming where it is.
    func regex(_ pattern: String, at location: SchemaLocation, _ extra: [String]) throws(SchemaCompileError) -> ECMARegex {
        guard let regex = ECMARegex(pattern) else {
            throw failure(location, extra, "invalid regular expression \"\(pattern)\"")
        }
        return regex
    }
}
