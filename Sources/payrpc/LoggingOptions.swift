public import ArgumentParser
public import Logging

/// `--log-level` and `--log-format`, shared by every subcommand; logs go to stderr only.
struct LoggingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("Least severe level logged: trace, debug, info, notice, warning, error, critical.", valueName: "level")
    )
    var logLevel: Logger.Level = LoggingSettings.defaults.logLevel

    @Option(help: ArgumentHelp("Log line format on stderr: text or json.", valueName: "format"))
    var logFormat: LogFormat = LoggingSettings.defaults.logFormat

    /// The options as plain values.
    var settings: LoggingSettings { LoggingSettings(logLevel: logLevel, logFormat: logFormat) }

    /// Bootstraps swift-log once and returns the command's logger (``LoggingSettings/makeLogger(label:)``).
    func makeLogger(label: String = "payrpc") -> Logger { settings.makeLogger(label: label) }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// How log lines look.
enum LogFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json
}
