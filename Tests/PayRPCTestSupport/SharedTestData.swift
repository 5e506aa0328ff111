import Foundation

/// The public conformance data the tests read in place (the JSON-Schema-Test-Suite, the OpenRPC
/// meta-schema): `PAYRPC_TESTDATA`, else `../shared/testdata` beside the repository root.
///
/// A test that needs the data and does not find it fails, naming the path it looked at and the
/// variable that names another: a suite that passed without running would hide a conformance gap.
public enum SharedTestData {
    /// The repository root, found from this file's path (`Tests/PayRPCTestSupport/`).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder the data is read from.
    public static let directory =
        ProcessInfo.processInfo.environment["PAYRPC_TESTDATA"].map { URL(fileURLWithPath: $0) }
        ?? repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared").appendingPathComponent("testdata")

    /// The data a test needs is not where it looked.
    public struct Missing: Error, CustomStringConvertible {
        /// The path that does not exist.
        public let path: String

        /// Nothing is at `path`.
        public init(path: String) { self.path = path }

        public var description: String {
            let origin =
                ProcessInfo.processInfo.environment["PAYRPC_TESTDATA"] != nil
                ? "PAYRPC_TESTDATA names \(SharedTestData.directory.path)"
                : "the default is ../shared/testdata beside the checkout"
            return "test data not found at \(path) (\(origin); set PAYRPC_TESTDATA to the folder that holds it)"
        }
    }

    /// The URL of `relativePath` under ``directory``; throws ``Missing`` when nothing is there.
    public static func url(_ relativePath: String) throws -> URL {
        let url = directory.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(path: url.path) }
        return url
    }

    /// ``directory`` itself once `relativePaths` are all under it; throws ``Missing`` for the first
    /// that is not.
    public static func directory(containing relativePaths: String...) throws -> URL {
        for path in relativePaths { _ = try url(path) }
        return directory
    }
}
