import Foundation

extension SandboxData {
    /// The file `name` shipped with target `target` (its `resources` in Package.swift): for a
    /// service's ``SandboxDataModel/bundledFile``, with `bundle` its `Bundle.module`.
    ///
    /// SwiftPM copies a target's resources into `payrpc_<target>.resources` beside the executable;
    /// the file is looked for there first, without `Bundle`: `Bundle.module` (a `Bundle(path:)`,
    /// which parses its URLs with CoreFoundation) was a large part of every start, once per
    /// service (docs/benchmarks.md). `bundle` is asked only when the file is not there (an executable run from
    /// elsewhere than the folder SwiftPM built it in). Nil when neither has the file.
    public static func shippedFile(_ name: String, target: String, bundle: () -> Bundle) -> URL? {
        if let directory = executableDirectory {
            let file = directory.appendingPathComponent("payrpc_\(target).resources").appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: file.path) { return file }
        }
        let file = bundle().bundleURL.appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }

    /// The folder of the running executable (Linux: `/proc/self/exe`); nil elsewhere.
    private static let executableDirectory: URL? = {
        #if os(Linux)
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: path).deletingLastPathComponent()
        #else
        return nil
        #endif
    }()
}
