import Logging

/// `--log-level` and `--log-format` as plain values: what ``LoggingOptions`` reads and
/// ``ServeSettings`` runs with. Its defaults are the options'.
struct LoggingSettings: Sendable {
    /// No option given.
    static let defaults = LoggingSettings()

    var logLevel: Logger.Level = .info
    var logFormat: LogFormat = .text

    /// Bootstraps swift-log once and returns the command's logger; logs go to stderr only.
    func makeLogger(label: String = "payrpc") -> Logger {
        let level = logLevel
        let format = logFormat
        LoggingSystem.bootstrap { label in
            var handler = StderrLogHandler(label: label, format: format)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: label)
        logger.logLevel = level
        return logger
    }
}
