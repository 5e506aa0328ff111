public import ArgumentParser
public import Logging

/// `--log-level` and `--log-format`, shared by every subcommand; logs go to stderr only.
struct LoggingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("Least severe level logged: trace, debug, info, notice, warning, error, critical.", valueName: "level")
    )
    var logLevel: Logger.Level = .info

    @Option(help: ArgumentHelp("Log line format on stderr: text or json.", valueName: "format"))
    var logFormat: LogFormat = .text

    /// Bootstraps swift-log once and returns the command's logger.
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

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// How log lines look.
enum LogFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json
}
