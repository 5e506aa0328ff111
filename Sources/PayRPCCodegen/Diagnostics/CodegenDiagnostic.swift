/// One problem found in the model sources: where it is and why the generator cannot express it.
///
/// Printed as `path:line: error: reason`, the form compilers use, so editors and CI logs link
/// straight to the declaration.
public struct CodegenDiagnostic: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source file, relative to the repository root (or as the caller named it).
    public var file: String
    /// The 1-based line of the declaration (or doc-comment line) at fault.
    public var line: Int
    /// What is wrong and, where it helps, what to write instead.
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file):\(line): error: \(message)" }
}

/// Generation stopped: every diagnostic found, in file and line order.
public struct CodegenFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problems, sorted by file then line.
    public var diagnostics: [CodegenDiagnostic]

    public init(_ diagnostics: [CodegenDiagnostic]) {
        self.diagnostics = diagnostics.sorted { ($0.file, $0.line, $0.message) < ($1.file, $1.line, $1.message) }
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
