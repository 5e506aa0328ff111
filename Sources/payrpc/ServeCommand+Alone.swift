import ArgumentParser
import Logging
import PayRPCPostgres

extension ServeCommand {
    /// `payrpc serve …` read without swift-argument-parser, for the common command lines
    /// (`serve --stdio --data DIR`, the listeners, the limits, the sandbox's options), straight
    /// into plain ``ServeSettings``: the library's parse reflects over every command's options
    /// (`Mirror`), and even building a ``ServeCommand`` by hand instantiates its property
    /// wrappers, whose first type lookups scan every protocol conformance record of the binary.
    /// Nil for anything else: another command, `--help`, an option or value it does not know,
    /// an option given twice, what `validate()` rejects; the caller then runs the library, so
    /// what the user sees for those is the library's own answer.
    ///
    /// Values are converted by their types' own `ExpressibleByArgument`, as the library does. In a
    /// debug build (every test's) the library parses the same arguments too and the two settings
    /// must be the same, so a new option or a changed default cannot drift from this path.
    static func parsedAlone(_ arguments: [String]) -> ServeSettings? {
        guard arguments.first == configuration.commandName else { return nil }
        var settings = ServeSettings()
        guard ServeArguments.read(arguments.dropFirst(), into: &settings) else { return nil }
        do { try settings.validate() } catch { return nil }
        #if DEBUG
        ServeArguments.expectSameAsLibrary(settings, Array(arguments.dropFirst()))
        #endif
        return settings
    }
}

/// The options ``ServeCommand/parsedAlone(_:)`` reads, by name: how each one sets the settings.
private enum ServeArguments {
    /// What an option with a value does with it; false when the value does not convert.
    typealias Setter = @Sendable (inout ServeSettings, String) -> Bool

    /// The flags, by name.
    static let flags: [String: @Sendable (inout ServeSettings) -> Void] = [
        "--stdio": { $0.stdio = true },
        "--mcp": { $0.mcp = true },
        "--ephemeral": { $0.ephemeral = true },
        "--sandbox": { $0.gateway.sandbox = true },
        "--no-sandbox": { $0.gateway.sandbox = false },
        "--validate-results": { $0.gateway.validateResults = true },
        "--call-journal": { $0.gateway.callJournal = true },
        "--no-call-journal": { $0.gateway.callJournal = false },
    ]

    /// What an option kept as written does with its value (closures rather than key paths: a
    /// start's first key path instantiates its pattern, a cost every start would pay).
    typealias Store = @Sendable (inout ServeSettings, String) -> Void

    /// The options that may be given more than once: each adds its value to a list.
    static let lists: [String: Store] = [
        "--tcp": { $0.tcp.append($1) }, "--unix": { $0.unix.append($1) },
        "--sandbox-data": { $0.gateway.sandboxData.append($1) }, "--method-timeout": { $0.methodTimeout.append($1) },
    ]

    /// The options whose value is kept as written.
    static let texts: [String: Store] = [
        "--data": { $0.gateway.data = $1 }, "--frozen-clock": { $0.gateway.frozenClock = $1 },
        "--journal-backend": { $0.gateway.journalBackend = $1 }, "--store": { $0.sharedStore.store = $1 },
        "--store-key-file": { $0.sharedStore.storeKeyFile = $1 }, "--auth-token-file": { $0.authTokenFile = $1 },
        "--store-max-bytes": { $0.storeMaxBytes = $1 },
    ]

    /// The options whose value is converted by its type, as the library converts it.
    static let options: [String: Setter] = [
        "--seed": { settings, text in converted(text) { settings.gateway.seed = $0 } },
        "--store-connections": { settings, text in converted(text) { settings.sharedStore.storeConnections = $0 } },
        "--max-line-bytes": { settings, text in converted(text) { settings.maxLineBytes = $0 } },
        "--max-batch": { settings, text in converted(text) { settings.maxBatch = $0 } },
        "--max-in-flight": { settings, text in converted(text) { settings.maxInFlight = $0 } },
        "--max-connections": { settings, text in converted(text) { settings.maxConnections = $0 } },
        "--idle-timeout": { settings, text in converted(text) { settings.idleTimeout = $0 } },
        "--drain-timeout": { settings, text in converted(text) { settings.drainTimeout = $0 } },
        "--default-timeout": { settings, text in converted(text) { settings.defaultTimeout = $0 } },
        "--web-api-timeout": { settings, text in converted(text) { settings.gateway.webAPITimeout = $0 } },
        "--calls-max": { settings, text in converted(text) { settings.gateway.callsMax = $0 } },
        "--calls-body-max": { settings, text in converted(text) { settings.gateway.callsBodyMax = $0 } },
        "--log-level": { settings, text in converted(text) { (level: Logger.Level) in settings.logging.logLevel = level } },
        "--log-format": { settings, text in converted(text) { (format: LogFormat) in settings.logging.logFormat = format } },
    ]

    /// `text` converted as the library converts a `Value` argument, then given to `set`.
    static func converted<Value: ExpressibleByArgument>(_ text: String, _ set: (Value) -> Void) -> Bool {
        guard let value = Value(argument: text) else { return false }
        set(value)
        return true
    }

    /// Applies `arguments` (`--name value`, `--name=value`, flags) to `settings`; false for
    /// anything it does not read (the library's parse takes over).
    static func read(_ arguments: ArraySlice<String>, into settings: inout ServeSettings) -> Bool {
        var seen: Set<String> = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let (name, inline) = split(argument)
            guard name.hasPrefix("--"), seen.insert(name).inserted || lists[name] != nil else { return false }
            if let flag = flags[name] {
                guard inline == nil else { return false }
                flag(&settings)
                continue
            }
            guard lists[name] != nil || texts[name] != nil || options[name] != nil,
                let value = inline ?? rest.popFirst(), !value.isEmpty, !value.hasPrefix("-")
            else { return false }
            if let store = lists[name] ?? texts[name] {
                store(&settings, value)
            } else if let set = options[name], !set(&settings, value) {
                return false
            }
        }
        // The library rejects an inverted flag given both ways.
        return !(seen.contains("--sandbox") && seen.contains("--no-sandbox"))
            && !(seen.contains("--call-journal") && seen.contains("--no-call-journal"))
    }

    /// `--name=value` as its name and value; any other argument as itself and nil.
    static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    #if DEBUG
    /// Stops the program when the library reads `arguments` into other settings than `settings`.
    static func expectSameAsLibrary(_ settings: ServeSettings, _ arguments: [String]) {
        guard let library = try? ServeCommand.parse(arguments) else {
            fatalError("serve's fast path read \(arguments), which the library rejects")
        }
        var (ours, theirs) = ("", "")
        dump(settings, to: &ours)
        dump(library.settings, to: &theirs)
        guard ours == theirs else {
            fatalError("serve's fast path read \(arguments) as\n\(ours)\nand the library as\n\(theirs)")
        }
    }
    #endif
}
