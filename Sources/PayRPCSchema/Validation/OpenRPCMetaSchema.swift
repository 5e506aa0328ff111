import Foundation
import PayRPCJSON

/// The OpenRPC meta-schema (open-rpc/meta-schema `schema.json`), compiled, for checking that a
/// document such as `Schemas/openrpc.json` is a valid OpenRPC document.
///
/// The published file's `openrpc` version is an `enum` holding a build-time placeholder;
/// ``compile(testdataDirectory:)`` replaces it with the pattern `^1\.[0-9]+\.[0-9]+$` (any 1.x.y).
public enum OpenRPCMetaSchema {
    /// The URI the OpenRPC meta-schema uses for its JSON Schema meta-schema.
    public static let jsonSchemaToolsURI = "https://meta.json-schema.tools"

    /// The pattern that replaces the placeholder `openrpc` version enum.
    public static let versionPattern = "^1\\.[0-9]+\\.[0-9]+$"

    /// Loads `openrpc-meta-schema.json` and `json-schema-tools-meta-schema.json` from
    /// `directory`, relaxes the `openrpc` version, and compiles.
    /// - Parameter directory: the folder holding both files (`testdata/openrpc`).
    /// - Throws: a read or JSON parse error for a missing or malformed file;
    ///   ``SchemaCompileError`` when the schemas do not compile.
    public static func compile(directory: URL) throws -> CompiledSchema {
        let metaSchema = try load(directory.appendingPathComponent("openrpc-meta-schema.json"))
        let tools = try load(directory.appendingPathComponent("json-schema-tools-meta-schema.json"))
        var registry = SchemaRegistry()
        registry.add(tools, uri: jsonSchemaToolsURI)
        return try CompiledSchema(relaxingVersion(metaSchema), registry: registry)
    }

    /// Like ``compile(directory:)``, given the shared test data folder (which holds `openrpc/`).
    public static func compile(testdataDirectory: URL) throws -> CompiledSchema {
        try compile(directory: testdataDirectory.appendingPathComponent("openrpc"))
    }

    /// `metaSchema` with `properties.openrpc`'s `enum` replaced by ``versionPattern``.
    public static func relaxingVersion(_ metaSchema: JSONValue) -> JSONValue {
        guard case .object(var members) = metaSchema,
            let propertiesIndex = members.firstIndex(where: { $0.name == "properties" }),
            case .object(var properties) = members[propertiesIndex].value,
            let versionIndex = properties.firstIndex(where: { $0.name == "openrpc" }),
            case .object(var version) = properties[versionIndex].value
        else { return metaSchema }
        version.removeAll { $0.name == "enum" || $0.name == "pattern" }
        version.append(JSONValue.Member("pattern", .string(versionPattern)))
        properties[versionIndex].value = .object(version)
        members[propertiesIndex].value = .object(properties)
        return .object(members)
    }

    private static func load(_ url: URL) throws -> JSONValue {
        let data = try Data(contentsOf: url)
        return try JSONValue(parsing: String(decoding: data, as: UTF8.self))
    }
}
