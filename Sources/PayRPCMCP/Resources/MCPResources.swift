import PayRPCCore
import PayRPCJSON

/// The resources of an MCP server (`resources/list`, `resources/read`): the OpenRPC document
/// (`Schemas/openrpc.json`), each service's guide, and each method's schemas
/// (`Schemas/methods/<method>.json`), rendered once at start-up from the same declarations.
struct MCPResources: Sendable {
    /// One resource.
    struct Resource: Sendable {
        let uri: String
        let name: String
        let description: String
        let mimeType: String
        let text: String
    }

    /// The resources, in listing order: the OpenRPC document, the guides, the method schemas.
    let resources: [Resource]
    private let indexByURI: [String: Int]
    /// The `resources` array of `resources/list`, as JSON.
    let listed: [UInt8]

    /// The prefix of every resource URI.
    static let scheme = "payrpc://"

    init(router: Router, version: String, documents: [MCPDocument]) {
        let files = SchemaFiles(builder: OpenRPCBuilder(router: router, version: version)).files
        var resources: [Resource] = []
        if let openRPC = files["openrpc.json"] {
            resources.append(
                Resource(
                    uri: Self.scheme + "schemas/openrpc.json", name: "openrpc.json",
                    description:
                        "The OpenRPC document of every method, notification and model (what rpc.discover answers; Schemas/openrpc.json).",
                    mimeType: "application/json", text: openRPC))
        }
        for document in documents.sorted(by: { $0.name < $1.name }) {
            resources.append(
                Resource(
                    uri: Self.scheme + "docs/\(document.name).md", name: "\(document.name).md",
                    description:
                        "The guide to the \(document.name) service: its methods, notifications, sandbox data and magic values (docs/\(document.name).md).",
                    mimeType: "text/markdown", text: document.text))
        }
        for method in router.methods {
            let file = "methods/\(SchemaFiles.fileName(method.name)).json"
            guard let text = files[file] else { continue }
            resources.append(
                Resource(
                    uri: Self.scheme + "schemas/" + file, name: "\(method.name).json",
                    description: "The params, result and error schemas of \(method.name) (Schemas/\(file)).",
                    mimeType: "application/json", text: text))
        }
        self.resources = resources
        self.indexByURI = Dictionary(resources.enumerated().map { ($1.uri, $0) }, uniquingKeysWith: { first, _ in first })
        var writer = JSONWriter(capacity: 1 << 14)
        writer.beginArray()
        for resource in resources {
            writer.element()
            writer.beginObject()
            writer.key("uri")
            writer.string(resource.uri)
            writer.key("name")
            writer.string(resource.name)
            writer.key("description")
            writer.string(resource.description)
            writer.key("mimeType")
            writer.string(resource.mimeType)
            writer.key("size")
            writer.int(resource.text.utf8.count)
            writer.endObject()
        }
        writer.endArray()
        self.listed = writer.bytes
    }

    /// The resource at `uri`.
    func resource(uri: String) -> Resource? {
        indexByURI[uri].map { resources[$0] }
    }
}
