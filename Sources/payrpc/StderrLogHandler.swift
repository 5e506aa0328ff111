import Foundation
import Logging
import PayRPCCore
import PayRPCJSON

/// Writes log lines to stderr (fd 2) with one `write(2)` each, as text or JSON.
///
/// stdout carries protocol lines only in `--stdio` mode, so no log may ever go there. Glibc's
/// `stderr` is shared mutable state to Swift 6, hence the raw descriptor.
struct StderrLogHandler: LogHandler {
    let label: String
    let format: LogFormat
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    init(label: String, format: LogFormat) {
        self.label = label
        self.format = format
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = self.metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let timestamp = RFC3339.format(Date())
        var line: String
        switch format {
        case .text:
            line = "\(timestamp) \(event.level) \(label): \(event.message)"
            for key in merged.keys.sorted() { line += " \(key)=\(merged[key]!)" }
        case .json:
            var members: [JSONValue.Member] = [
                .init("ts", .string(timestamp)), .init("level", .string(event.level.rawValue)),
                .init("logger", .string(label)), .init("message", .string("\(event.message)")),
            ]
            for key in merged.keys.sorted() { members.append(.init(key, .string("\(merged[key]!)"))) }
            line = JSONValue.object(members).jsonText
        }
        line += "\n"
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }
}

/// The version string `--version` prints.
enum PayRPCVersionString {
    static let value = "payrpc \(PayRPCVersion.current)"
}
