import Foundation
import Logging
import PayRPCCore
import PayRPCMCP
import PayRPCSandbox
import PayRPCStore
import PayRPCJSON
import PayRPCSecrets

/// `payrpc schemas`: the files of `Schemas/` from the same declarations the server serves.
public enum SchemaExport {
    /// The files (relative path → contents) for the current build's methods.
    public static func files(configuration: GatewayConfiguration, logger: Logger) throws -> [String: String] {
        let router = try describingRouter(configuration: configuration, logger: logger)
        var files = SchemaFiles(builder: OpenRPCBuilder(router: router, version: configuration.engine.version)).files
        files[mcpToolsFile] = try MCPToolCatalog(router: router).document.canonicalText
        return files
    }

    /// The tools `payrpc serve --mcp` lists (in sandbox mode), beside the schemas they come from.
    public static let mcpToolsFile = "mcp-tools.json"

    /// A router with every method, for describing and validating rather than serving.
    ///
    /// The services of the same catalog `payrpc serve` runs, built and never run; describing them
    /// touches no state, so they get a store that opens no database and refuses every call
    /// (``DescribingStore``), and a key kept nowhere.
    public static func describingRouter(configuration: GatewayConfiguration, logger: Logger) throws -> Router {
        var quiet = logger
        quiet.logLevel = .error
        let sandbox = SandboxControls()
        let services = try ServiceCatalog.build(
            ServiceCatalog.standard,
            parts: .init(
                store: DescribingStore(), secrets: SecretHasher.ephemeral(), sandbox: sandbox,
                connections: ConnectionDirectory(), logger: quiet),
            configuration: configuration)
        return try Gateway.makeRouter(
            services: services, administration: DescribingStore(), sandbox: sandbox,
            configuration: configuration.engine, state: ServerState())
    }

    /// Writes the files under `directory`, removing generated files that no longer exist.
    public static func write(_ files: [String: String], to directory: URL) throws {
        let manager = FileManager.default
        for sub in ["models", "methods"] {
            let folder = directory.appendingPathComponent(sub)
            if let existing = try? manager.contentsOfDirectory(atPath: folder.path) {
                for name in existing where name.hasSuffix(".json") && files["\(sub)/\(name)"] == nil {
                    try manager.removeItem(at: folder.appendingPathComponent(name))
                }
            }
        }
        for (path, contents) in files {
            let url = directory.appendingPathComponent(path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url, options: .atomic)
        }
    }

    /// The relative paths whose contents under `directory` differ from `files` (missing,
    /// different, or a generated file that should not exist).
    public static func differences(_ files: [String: String], in directory: URL) -> [String] {
        var different: [String] = []
        for (path, contents) in files.sorted(by: { $0.key < $1.key }) {
            let existing = try? String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
            if existing != contents { different.append(path) }
        }
        for sub in ["models", "methods"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(sub).path)) ?? []
            for name in names.sorted() where name.hasSuffix(".json") && files["\(sub)/\(name)"] == nil {
                different.append("\(sub)/\(name)")
            }
        }
        return different
    }
}
