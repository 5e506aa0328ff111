import ArgumentParser
import Foundation
import PayRPCGateway
import PayRPCJSON
import PayRPCStore
import PayRPCSQLite
import PayRPCPostgres

/// `payrpc data`: inspect or clear the stored state of a profile.
struct DataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "Export or reset the stored state of a profile.",
        subcommands: [Export.self, Reset.self, Check.self, Migrate.self]
    )

    /// `payrpc data migrate`.
    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Create or bring up to date the store's tables (a PostgreSQL store ahead of a deployment; serve also applies what is missing), and print the migrations applied."
        )

        @OptionGroup var options: ProfileStoreOptions

        func run() async throws {
            let store = try options.openStore()
            switch store {
            case let shared as PostgresStateStore:
                for migration in try shared.appliedMigrations() { print(migration) }
                try await shared.close()
            default:
                print("ok")
            }
        }
    }

    /// `payrpc data check`.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the database's consistency (PRAGMA integrity_check); exit 1 when it is damaged.")

        @OptionGroup var options: ProfileStoreOptions

        func run() async throws {
            guard let store = try options.openStore() as? SQLiteStateStore else {
                throw ValidationError("data check checks an SQLite data directory; PostgreSQL checks its own (amcheck)")
            }
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
            let store = try options.openStore(), profile = options.profile
            let state = try await store.export(profile: profile)
            print(state.canonicalText, terminator: "")
        }
    }

    /// `payrpc data reset`.
    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Delete every document and idempotency key of a profile (run it while no server uses the data directory, or accept that the server sees the change at once)."
        )

        @OptionGroup var options: ProfileStoreOptions

        func run() async throws {
            let store = try options.openStore(), profile = options.profile
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

    @OptionGroup var sharedStore: SharedStoreOptions

    @OptionGroup var logging: LoggingOptions

    /// Opens the shared store `--store` names, else the SQLite store of the data directory.
    func openStore() throws -> any StateStore & StoreAdministration {
        if let shared = try sharedStore.options(applicationName: "payrpc data") {
            return try PostgresStateStore(options: shared, logger: logging.makeLogger())
        }
        return try SQLiteStateStore(directory: DataDirectory.resolve(explicit: data), logger: logging.makeLogger())
    }
}
