import ArgumentParser
import Logging

extension ServeCommand {
    /// `payrpc serve …` read without swift-argument-parser, for the common command lines
    /// (`serve --stdio --data DIR`, the listeners, the limits, the sandbox's options): the
    /// library's parse reflects over every command's options (`Mirror`), and the first lookups
    /// of their types scan every protocol conformance record of the binary, about a sixth of a
    /// stdio gateway's start-up. Nil for anything else: another command, `--help`, an option or
    /// value it does not know, an option given twice, what `validate()` rejects; the caller then
    /// runs the library, so what the user sees for those is the library's own answer.
    ///
    /// Values are converted by their types' own `ExpressibleByArgument`, as the library does. In a
    /// debug build (every test's) the library parses the same arguments too and the two commands
    /// must be the same, so a new option or a changed default cannot drift from this path.
    static func parsedAlone(_ arguments: [String]) -> ServeCommand? {
        guard arguments.first == configuration.commandName else { return nil }
        var command = ServeArguments.defaults()
        guard ServeArguments.read(arguments.dropFirst(), into: &command) else { return nil }
        do { try command.validate() } catch { return nil }
        #if DEBUG
        ServeArguments.expectSameAsLibrary(command, Array(arguments.dropFirst()))
        #endif
        return command
    }
}

/// The options ``ServeCommand/parsedAlone(_:)`` reads, by name: how each one sets the command.
private enum ServeArguments {
    /// What an option with a value does with it; false when the value does not convert.
    typealias Setter = @Sendable (inout ServeCommand, String) -> Bool

    /// A `serve` with every option at its default, as the library leaves what is not given.
    static func defaults() -> ServeCommand {
        var gateway = GatewayOptions()
        (gateway.data, gateway.sandbox, gateway.sandboxData, gateway.validateResults) = (nil, true, [], false)
        (gateway.seed, gateway.frozenClock, gateway.journalBackend) = (nil, nil, nil)
        var store = SharedStoreOptions()
        (store.store, store.storeKeyFile, store.storeConnections) = (nil, nil, 8)
        var logging = LoggingOptions()
        (logging.logLevel, logging.logFormat) = (.info, .text)
        var command = ServeCommand()
        (command.stdio, command.tcp, command.unix, command.mcp, command.ephemeral) = (false, [], [], false, false)
        (command.gateway, command.sharedStore, command.logging) = (gateway, store, logging)
        (command.maxLineBytes, command.maxBatch, command.maxInFlight, command.maxConnections) = (1 << 20, 1000, 256, 1024)
        (command.idleTimeout, command.drainTimeout, command.defaultTimeout) = (900, 10, 0)
        (command.methodTimeout, command.authTokenFile, command.storeMaxBytes) = ([], nil, nil)
        return command
    }

    /// The flags, by name.
    static let flags: [String: @Sendable (inout ServeCommand) -> Void] = [
        "--stdio": { $0.stdio = true },
        "--mcp": { $0.mcp = true },
        "--ephemeral": { $0.ephemeral = true },
        "--sandbox": { $0.gateway.sandbox = true },
        "--no-sandbox": { $0.gateway.sandbox = false },
        "--validate-results": { $0.gateway.validateResults = true },
    ]

    /// The options that may be given more than once: each adds its value to a list.
    static let lists: [String: WritableKeyPath<ServeCommand, [String]> & Sendable] = [
        "--tcp": \.tcp, "--unix": \.unix, "--sandbox-data": \.gateway.sandboxData, "--method-timeout": \.methodTimeout,
    ]

    /// The options whose value is kept as written.
    static let texts: [String: WritableKeyPath<ServeCommand, String?> & Sendable] = [
        "--data": \.gateway.data, "--frozen-clock": \.gateway.frozenClock, "--journal-backend": \.gateway.journalBackend,
        "--store": \.sharedStore.store, "--store-key-file": \.sharedStore.storeKeyFile,
        "--auth-token-file": \.authTokenFile, "--store-max-bytes": \.storeMaxBytes,
    ]

    /// The options whose value is converted by its type, as the library converts it.
    static let options: [String: Setter] = [
        "--seed": { command, text in converted(text) { command.gateway.seed = $0 } },
        "--store-connections": { command, text in converted(text) { command.sharedStore.storeConnections = $0 } },
        "--max-line-bytes": { command, text in converted(text) { command.maxLineBytes = $0 } },
        "--max-batch": { command, text in converted(text) { command.maxBatch = $0 } },
        "--max-in-flight": { command, text in converted(text) { command.maxInFlight = $0 } },
        "--max-connections": { command, text in converted(text) { command.maxConnections = $0 } },
        "--idle-timeout": { command, text in converted(text) { command.idleTimeout = $0 } },
        "--drain-timeout": { command, text in converted(text) { command.drainTimeout = $0 } },
        "--default-timeout": { command, text in converted(text) { command.defaultTimeout = $0 } },
        "--log-level": { command, text in converted(text) { (level: Logger.Level) in command.logging.logLevel = level } },
        "--log-format": { command, text in converted(text) { (format: LogFormat) in command.logging.logFormat = format } },
    ]

    /// `text` converted as the library converts a `Value` argument, then given to `set`.
    static func converted<Value: ExpressibleByArgument>(_ text: String, _ set: (Value) -> Void) -> Bool {
        guard let value = Value(argument: text) else { return false }
        set(value)
        return true
    }

    /// Applies `arguments` (`--name value`, `--name=value`, flags) to `command`; false for
    /// anything it does not read (the library's parse takes over).
    static func read(_ arguments: ArraySlice<String>, into command: inout ServeCommand) -> Bool {
        var seen: Set<String> = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let (name, inline) = split(argument)
            guard name.hasPrefix("--"), seen.insert(name).inserted || lists[name] != nil else { return false }
            if let flag = flags[name] {
                guard inline == nil else { return false }
                flag(&command)
                continue
            }
            guard lists[name] != nil || texts[name] != nil || options[name] != nil,
                let value = inline ?? rest.popFirst(), !value.isEmpty, !value.hasPrefix("-")
            else { return false }
            if let list = lists[name] {
                command[keyPath: list].append(value)
            } else if let text = texts[name] {
                command[keyPath: text] = value
            } else if let set = options[name], !set(&command, value) {
                return false
            }
        }
        // The library rejects an inverted flag given both ways.
        return !(seen.contains("--sandbox") && seen.contains("--no-sandbox"))
    }

    /// `--name=value` as its name and value; any other argument as itself and nil.
    static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    #if DEBUG
    /// Stops the program when the library reads `arguments` into another command than `command`.
    static func expectSameAsLibrary(_ command: ServeCommand, _ arguments: [String]) {
        guard let library = try? ServeCommand.parse(arguments) else {
            fatalError("serve's fast path read \(arguments), which the library rejects")
        }
        var (ours, theirs) = ("", "")
        dump(command, to: &ours)
        dump(library, to: &theirs)
        guard ours == theirs else {
            fatalError("serve's fast path read \(arguments) as\n\(ours)\nand the library as\n\(theirs)")
        }
    }
    #endif
}
