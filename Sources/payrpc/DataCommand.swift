import ArgumentParser
import Foundation
import PayRPCGateway
import PayRPCJSON
import PayRPCStore

/// `payrpc data`: inspect or clear the stored state of a profile.
struct DataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "Export or reset the stored state of a profile.",
        subcommands: [Export.self, Reset.self, Check.self]
    )

    /// `payrpc data check`.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the database's consistency (PRAGMA integrity_check); exit 1 when it is damaged.")

        @OptionGroup var options: ProfileStoreOptions

        func run() async throws {
            let (store, _) = try options.open()
            guard try await store.integrityCheck() else {
                print("the database is damaged; see the log")
                throw ExitCode(1)
            }
            print("ok")
        }
    }

    /// `payrpc data export`.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a profile's state as JSON ({namespace: {key: value}}).")

        @OptionGroup var options: ProfileStoreOptions

        func run() async throws {
            let (store, profile) = try options.open()
            let state = try await store.export(profile: profile)
            print(state.canonicalText, terminator: "")
        }
    }

    /// `payrpc data reset`.
    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete every document and idempotency key of a profile (run it while no server uses the data directory, or accept that the server sees the change at once).")

        @OptionGroup var options: ProfileStoreOptions

        func run() async throws {
            let (store, profile) = try options.open()
            try await store.reset(profile: profile)
            print("profile \(profile) reset")
        }
    }
}

/// The profile and data directory a `payrpc data` subcommand works on.
struct ProfileStoreOptions: ParsableArguments {
    @Option(help: "The profile.")
    var profile = "default"

    @Option(help: "Data directory (default: $XDG_DATA_HOME/payrpc, else ~/.local/share/payrpc).")
    var data: String?

    @OptionGroup var logging: LoggingOptions

    /// Opens the store of the data directory.
    func open() throws -> (SQLiteStateStore, String) {
        (try SQLiteStateStore(directory: DataDirectory.resolve(explicit: data), logger: logging.makeLogger()), profile)
    }
}
