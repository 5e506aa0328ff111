import Foundation

/// Where payrpc keeps its database and server key.
public enum DataDirectory {
    /// The data directory: `explicit` (`--data DIR`) when given, else `$XDG_DATA_HOME/payrpc`
    /// when that variable holds an absolute path (the XDG rule), else `~/.local/share/payrpc`.
    /// - Parameters:
    ///   - explicit: the `--data` option; `~` at its start means the home directory.
    ///   - environment: the process environment (a parameter so tests can pass their own); nil
    ///     (the default) reads the process's own variables, only those it needs (`getenv`:
    ///     `ProcessInfo`'s whole environment as a dictionary was a visible part of a start).
    public static func resolve(explicit: String?, environment: [String: String]? = nil) -> URL {
        func variable(_ name: String) -> String? {
            guard let environment else { return getenv(name).map { String(cString: $0) } }
            return environment[name]
        }
        func home() -> String {
            variable("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        }
        if let explicit, !explicit.isEmpty {
            if explicit == "~" { return URL(fileURLWithPath: home(), isDirectory: true) }
            if explicit.hasPrefix("~/") {
                return URL(fileURLWithPath: home(), isDirectory: true)
                    .appendingPathComponent(String(explicit.dropFirst(2)), isDirectory: true)
            }
            return URL(fileURLWithPath: explicit, isDirectory: true).standardizedFileURL
        }
        if let xdg = variable("XDG_DATA_HOME"), xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("payrpc", isDirectory: true)
        }
        return URL(fileURLWithPath: home(), isDirectory: true)
            .appendingPathComponent(".local/share/payrpc", isDirectory: true)
    }
}
