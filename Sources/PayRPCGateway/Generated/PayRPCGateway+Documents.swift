enum EmbeddedDocuments {
    static let files: [(path: String, text: String)] = []
}
