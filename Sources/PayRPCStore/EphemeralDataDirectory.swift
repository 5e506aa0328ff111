import Foundation

/// A data directory that lives as long as one server (`payrpc serve --ephemeral`): created
/// empty, readable by its owner only, under the temporary directory (`$TMPDIR`, else `/tmp`),
/// and removed with everything in it (database, server key) when the server stops.
///
/// It is an ordinary data directory while it exists, so the store, the server key and every
/// service behave exactly as with `--data`; only its lifetime differs. A process killed with
/// SIGKILL cannot remove it: the name (`payrpc-ephemeral-<pid>-<random>`) says whose it was.
public struct EphemeralDataDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates a new, empty directory (mode 0700).
    /// - Parameter parent: where to create it (default: the temporary directory).
    /// - Throws: the file system's error when it cannot be created.
    public static func create(in parent: URL = FileManager.default.temporaryDirectory) throws -> EphemeralDataDirectory {
        let name = "payrpc-ephemeral-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8).lowercased())"
        let url = parent.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
        return EphemeralDataDirectory(url: url)
    }

    /// Removes the directory and everything in it; removing it again does nothing.
    /// - Throws: the file system's error when something in it cannot be removed.
    public func remove() throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try FileManager.default.removeItem(at: url)
    }
}
