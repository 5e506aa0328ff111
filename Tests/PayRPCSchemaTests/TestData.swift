import Foundation
import PayRPCJSON
import PayRPCTestSupport

/// The shared conformance data (``SharedTestData``) as the schema tests read it.
enum TestData {
    /// The repository root.
    static let repositoryRoot = SharedTestData.repositoryRoot

    /// The JSON-Schema-Test-Suite's draft-07 folder.
    static let draft7Folder = "JSON-Schema-Test-Suite/draft7"

    /// The names of the suite's draft-07 files, sorted; throws ``SharedTestData/Missing`` (the
    /// test fails, saying where it looked) when the suite is not there.
    static func draft7Files() throws -> [String] {
        let url = try SharedTestData.url(draft7Folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".json") }.sorted()
        guard !files.isEmpty else { throw SharedTestData.Missing(path: "\(url.path)/*.json") }
        return files
    }

    /// Reads and parses a JSON file under the test data directory.
    static func json(_ relativePath: String) throws -> JSONValue {
        let data = try Data(contentsOf: try SharedTestData.url(relativePath))
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
