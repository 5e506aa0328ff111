// Stand-in for the generated file: `swift run payrpc-codegen` replaces it.
import PayRPCJSON
import PayRPCSchema

extension ServingStatus {
    public static var fieldOrder: [String] { [] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/rpc.ServingStatus"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        definitions.insert("rpc.ServingStatus", schema: ["type": "string", "enum": ["SERVING", "NOT_SERVING"],
                                                         "description": "Whether the server takes work."])
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        if json.stringEquals("SERVING") { self = .serving }
        else if json.stringEquals("NOT_SERVING") { self = .notServing }
        else { throw JSONDecodingError("expected one of SERVING, NOT_SERVING") }
    }
    public func encode(to writer: inout JSONWriter) { writer.string(rawValue) }
}

extension HealthStatus {
    public static var fieldOrder: [String] { ["status"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/rpc.HealthStatus"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        guard definitions.insert("rpc.HealthStatus", schema: [
            "type": "object", "description": "The health of the server.", "additionalProperties": false,
            "required": ["status"],
            "properties": ["status": ["$ref": "#/definitions/rpc.ServingStatus"]],
        ]) else { return }
        ServingStatus.collectSchemaDefinitions(into: &definitions)
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var status: ServingStatus?
        for (name, value) in json.objectMembers where name.stringEquals("status") {
            do { status = try ServingStatus(json: value) } catch { throw error.prefixed("status") }
        }
        guard let status else { throw .missing("status") }
        self.status = status
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("status", status)
        writer.endObject()
    }
}

extension HelloParams {
    public static var fieldOrder: [String] { ["client", "protocolVersion", "token", "profile"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/rpc.HelloParams"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        definitions.insert("rpc.HelloParams", schema: [
            "type": "object", "description": "The optional handshake a client sends first.", "additionalProperties": false,
            "properties": [
                "client": ["type": "string", "maxLength": 200, "description": "The client's name and version, for the server's log."],
                "protocolVersion": ["type": "string", "maxLength": 40, "description": "The protocol version the client speaks."],
                "token": ["type": "string", "maxLength": 1024, "description": "The server's token (`--auth-token-file`); required on TCP and Unix connections when the server has one."],
                "profile": ["type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$", "description": "The state profile this connection uses (one app user on one device); `default` when absent."],
            ],
        ])
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        for (name, value) in json.objectMembers {
            do {
                if name.stringEquals("client") { client = try String?(json: value) }
                else if name.stringEquals("protocolVersion") { protocolVersion = try String?(json: value) }
                else if name.stringEquals("token") { token = try String?(json: value) }
                else if name.stringEquals("profile") { profile = try String?(json: value) }
            } catch { throw error.prefixed(name.string ?? "") }
        }
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("client", client)
        writer.member("protocolVersion", protocolVersion)
        writer.member("token", token)
        writer.member("profile", profile)
        writer.endObject()
    }
}

extension HelloResult {
    public static var fieldOrder: [String] { ["server", "version", "protocolVersion", "methods", "profile"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/rpc.HelloResult"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        definitions.insert("rpc.HelloResult", schema: [
            "type": "object", "description": "Who the server is.", "additionalProperties": false,
            "required": ["server", "version", "protocolVersion", "methods", "profile"],
            "properties": [
                "server": ["type": "string", "description": "The server's name."],
                "version": ["type": "string", "description": "The server's version."],
                "protocolVersion": ["type": "string", "description": "The protocol version the server speaks."],
                "methods": ["type": "integer", "description": "How many methods the server serves (canonical names)."],
                "profile": ["type": "string", "description": "The profile this connection now uses."],
            ],
        ])
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var server: String?, version: String?, protocolVersion: String?, methods: Int?, profile: String?
        for (name, value) in json.objectMembers {
            do {
                if name.stringEquals("server") { server = try String(json: value) }
                else if name.stringEquals("version") { version = try String(json: value) }
                else if name.stringEquals("protocolVersion") { protocolVersion = try String(json: value) }
                else if name.stringEquals("methods") { methods = try Int(json: value) }
                else if name.stringEquals("profile") { profile = try String(json: value) }
            } catch { throw error.prefixed(name.string ?? "") }
        }
        guard let server else { throw .missing("server") }
        guard let version else { throw .missing("version") }
        guard let protocolVersion else { throw .missing("protocolVersion") }
        guard let methods else { throw .missing("methods") }
        guard let profile else { throw .missing("profile") }
        self.server = server; self.version = version; self.protocolVersion = protocolVersion
        self.methods = methods; self.profile = profile
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("server", server)
        writer.member("version", version)
        writer.member("protocolVersion", protocolVersion)
        writer.member("methods", methods)
        writer.member("profile", profile)
        writer.endObject()
    }
}

extension CancelParams {
    public static var fieldOrder: [String] { ["id"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/rpc.CancelParams"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        definitions.insert("rpc.CancelParams", schema: [
            "type": "object", "description": "Which request to cancel.", "additionalProperties": false,
            "required": ["id"],
            "properties": ["id": ["description": "The id of the request, exactly as it was sent."]],
        ])
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var id: JSONValue?
        for (name, value) in json.objectMembers where name.stringEquals("id") { id = JSONValue(value) }
        guard let id else { throw .missing("id") }
        self.id = id
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("id", id)
        writer.endObject()
    }
}

extension Health {
    public static var summary: String { "Reports whether the server is serving." }
    public static var documentation: String { "Answers `{\"status\":\"SERVING\"}`, or `NOT_SERVING` while the server drains before it exits\n(after SIGTERM, SIGINT or the end of stdin)." }
}

extension Hello {
    public static var summary: String { "The optional handshake: names the client, selects the state profile, presents the token." }
    public static var documentation: String { "A TCP or Unix connection to a server started with `--auth-token-file` must call this with\nthe token before any other method. The profile selects whose state the connection uses;\nconnections with different profiles never see each other's state." }
}

extension Discover {
    public static var summary: String { "Returns the OpenRPC document of everything this server serves." }
    public static var documentation: String { "The same document as `Schemas/openrpc.json`: every method with its params, result, errors,\naliases (`x-aliases`), whether it mutates state (`x-mutates`) and the notifications it may\nsend (`x-notifications`)." }
}

extension CancelRequest {
    public static var summary: String { "Cancels a request of this connection that is still running; send it as a notification." }
    public static var documentation: String { "The cancelled request answers at once with error -32800 (Request cancelled)." }
}
