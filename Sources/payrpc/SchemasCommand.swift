import ArgumentParser
import Foundation
import PayRPCGateway
import PayRPCSQLite

/// `payrpc schemas`: writes (or checks) `Schemas/` from the methods this build serves.
struct SchemasCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schemas",
        abstract: "Write the JSON Schemas and the OpenRPC document of every method.",
        discussion: """
            Writes openrpc.json, models/<Name>.json and methods/<method>.json under --out. The \
            output is deterministic (sorted keys, two-space indentation, trailing newline). With \
            --check, writes nothing and exits 1 if any file differs.
            """
    )

    @Option(help: "The folder to write (or check).")
    var out = "Schemas"

    @Flag(help: "Compare instead of writing; list each file that differs and exit 1.")
    var check = false

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        let logger = logging.makeLogger()
        let configuration = GatewayConfiguration(dataDirectory: FileManager.default.temporaryDirectory)
        let files = try SchemaExport.files(configuration: configuration, logger: logger)
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        if check {
            let differences = SchemaExport.differences(files, in: directory)
            guard differences.isEmpty else {
                for path in differences { print("\(out)/\(path) differs; run: swift run payrpc schemas --out \(out)") }
                throw ExitCode(1)
            }
            print("\(files.count) schema files up to date")
        } else {
            try SchemaExport.write(files, to: directory)
            print("wrote \(files.count) files to \(out)")
        }
    }
}
