import Foundation

/// `codegen.json` at the repository root: which modules under `Sources/` hold models, and the
/// prefix of their schema names; and which text files a module embeds.
///
/// ```json
/// {"modules": {"PayRPCCore": "rpc", "TatraService": "tatra", "PBBAService": "pbba"},
///  "documents": {"PayRPCGateway": ["docs/tatra.md", "docs/pbba.md"]}}
/// ```
public struct CodegenConfiguration: Codable, Sendable, Equatable {
    /// Module directory under `Sources/` → schema-name prefix (`tatra` gives `tatra.Contact`).
    public var modules: [String: String]
    /// Module directory under `Sources/` → the files (relative to the root) it embeds as
    /// `EmbeddedDocuments` (``DocumentEmitter``).
    public var documents: [String: [String]]?

    public init(modules: [String: String], documents: [String: [String]]? = nil) {
        self.modules = modules
        self.documents = documents
    }

    /// The configuration's file name at the repository root.
    public static let fileName = "codegen.json"

    /// Reads `codegen.json` from `root`.
    /// - Throws: ``CodegenConfigurationError`` when the file is missing or malformed.
    public static func load(root: URL) throws -> CodegenConfiguration {
        let url = root.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CodegenConfigurationError(
                message: "\(url.path): not found; payrpc-codegen runs from the repository root (or pass --root)")
        }
        let configuration: CodegenConfiguration
        do {
            configuration = try JSONDecoder().decode(CodegenConfiguration.self, from: data)
        } catch {
            throw CodegenConfigurationError(
                message: "\(fileName): expected {\"modules\": {\"<Module>\": \"<prefix>\"}} (\(error))")
        }
        for (module, prefix) in configuration.modules {
            guard !module.isEmpty, !module.contains("/"), !module.contains(".."),
                !prefix.isEmpty, !prefix.contains("/"), !prefix.contains(" ")
            else {
                throw CodegenConfigurationError(
                    message: "\(fileName): module \"\(module)\" → prefix \"\(prefix)\": names must be non-empty, without slashes")
            }
        }
        for (module, paths) in configuration.documents ?? [:] {
            for path in paths where module.isEmpty || module.contains("/") || path.hasPrefix("/") || path.contains("..") {
                throw CodegenConfigurationError(
                    message: "\(fileName): documents of \"\(module)\": \"\(path)\" must be a path inside the repository")
            }
        }
        return configuration
    }
}

/// `codegen.json` could not be used.
public struct CodegenConfigurationError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { "error: \(message)" }
}
