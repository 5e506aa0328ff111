import Foundation
import PayRPCJSON

/// Where the shared test data lives: `../shared/testdata` from the repository root.
enum TestData {
    /// The repository root, found from this file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `PAYRPC_TESTDATA`, else `../shared/testdata` relative to the repository root (a git
    /// worktree elsewhere names the folder with the variable).
    static let directory =
        ProcessInfo.processInfo.environment["PAYRPC_TESTDATA"].map { URL(fileURLWithPath: $0) }
        ?? repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared").appendingPathComponent("testdata")

    /// Whether `relativePath` exists under the test data directory.
    static func exists(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(relativePath).path)
    }

    /// The JSON-Schema-Test-Suite's draft-07 folder.
    static let draft7Folder = "JSON-Schema-Test-Suite/draft7"

    /// The names of the suite's draft-07 files, sorted; nil (said on stdout) when the suite is
    /// not in the test data.
    static func draft7Files(for test: String) throws -> [String]? {
        guard exists(draft7Folder) else {
            print("JSON-Schema-Test-Suite not found at \(directory.path)/\(draft7Folder): \(test) not run")
            return nil
        }
        let url = directory.appendingPathComponent(draft7Folder)
        return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".json") }.sorted()
    }

    /// Reads and parses a JSON file under the test data directory.
    static func json(_ relativePath: String) throws -> JSONValue {
        let data = try Data(contentsOf: directory.appendingPathComponent(relativePath))
        return try JSONValue(parsing: String(decoding: data, as: UTF8.self))
    }

    /// Parses JSON text into a tape whose root is the value to validate.
    static func tape(_ text: String) throws -> JSONTape {
        try JSONTape(string: text)
    }

    /// An owned value as a tape.
    static func tape(_ value: JSONValue) throws -> JSONTape {
        var writer = JSONWriter()
        value.encode(to: &writer)
        return try JSONTape(copying: writer.bytes)
    }
}
