import Foundation
@testable import PayRPCCodegen

/// Where the test files are, found from this file's path; and the record switch.
enum TestPaths {
    /// `Tests/PayRPCCodegenTests/`.
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// The repository root.
    static let repositoryRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    /// The golden fixtures.
    static let fixtures = testsDirectory.appendingPathComponent("Fixtures")

    /// `PAYRPC_RECORD=1 swift test ...` rewrites the expected files instead of comparing
    /// (then review the diff and commit it).
    static var isRecording: Bool { ProcessInfo.processInfo.environment["PAYRPC_RECORD"] == "1" }

    static func read(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: .atomic)
    }

    /// Generates one module named `Fixture` (prefix `fx`) from in-memory sources.
    static func generate(_ files: [(String, String)], module: String = "Fixture", prefix: String = "fx") throws(CodegenFailure)
        -> String?
    {
        let sources = ModuleSources(
            module: module, prefix: prefix, outputPath: "\(module)+Generated.swift",
            files: files.map { SourceFile(path: $0.0, text: $0.1) })
        return try ModelGenerator.generate([sources]).first?.contents
    }

    /// The diagnostics for `source` (as file `Bad.swift`); empty when it generates.
    static func diagnostics(_ source: String, extra: [(String, String)] = []) -> [CodegenDiagnostic] {
        do {
            _ = try generate([("Bad.swift", source)] + extra)
            return []
        } catch {
            return error.diagnostics
        }
    }
}
