import PayRPCCore
import PayRPCMCP

/// The service guides (`docs/<service>.md`) the MCP face offers as resources, embedded in the
/// binary when it is built (``EmbeddedDocuments``, written by `payrpc-codegen` from the files
/// `codegen.json` lists under `documents`).
enum ServiceDocuments {
    /// Every embedded guide, named after its file (`docs/tatra.md` → `tatra`).
    static var all: [MCPDocument] {
        EmbeddedDocuments.files.map { path, text in
            let file = path.split(separator: "/").last.map(String.init) ?? path
            return MCPDocument(name: file.hasSuffix(".md") ? String(file.dropLast(3)) : file, text: text)
        }
    }
}
