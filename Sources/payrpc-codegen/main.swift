import ArgumentParser
import Foundation
import PayRPCCodegen

/// `payrpc-codegen`: generates the JSON Schemas and codecs of the models declared in the
/// modules that `codegen.json` lists.
struct PayRPCCodegenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "payrpc-codegen",
        abstract: "Generate JSON Schemas and fast JSON codecs from Swift model declarations.",
        discussion: """
            Reads codegen.json at the repository root ({"modules": {"<Module>": "<prefix>"}}), parses \
            every .swift file under Sources/<Module>/ (except Generated/ folders) with swift-syntax, \
            and writes one file per module that declares models or methods: \
            Sources/<Module>/Generated/<Module>+Generated.swift.

            A model is a struct or enum that conforms to JSONModel in its declaration; its schema \
            comes from its stored properties, their types and doc comments, with constraint tags \
            such as `- Pattern: ^[A-Z]{3}$`, `- MinLength: 1`, `- Key: image_url`. An RPCMethod or \
            RPCNotification gets its summary and documentation from its doc comment.

            Errors are printed as `path:line: error: reason` and exit with status 1; nothing is \
            written then. Modules listed in codegen.json that do not exist yet are skipped.
            """)

    @Option(name: .long, help: "The repository root (where codegen.json and Sources/ are). Default: the current directory.")
    var root: String = "."

    @Option(name: .long, help: "Write the generated files under this directory instead of the root (for tests).")
    var out: String?

    @Flag(name: .long, help: "Write nothing; exit 1 listing every generated file that differs from what the models generate.")
    var check = false

    func run() throws {
        let rootURL = URL(fileURLWithPath: root).standardizedFileURL
        let outputRoot = out.map { URL(fileURLWithPath: $0).standardizedFileURL } ?? rootURL
        let plan: RepositoryGenerator.Plan
        do {
            plan = try RepositoryGenerator(root: rootURL).plan()
        } catch let failure as CodegenFailure {
            printError(failure.description)
            throw ExitCode(1)
        } catch let error as CodegenConfigurationError {
            printError(error.description)
            throw ExitCode(1)
        }
        for note in plan.notes { printError(note) }
        if check {
            let differing = RepositoryGenerator.differences(plan, outputRoot: outputRoot)
            guard differing.isEmpty else {
                for path in differing { printError("\(path): differs from what the models generate") }
                printError("run `swift run payrpc-codegen` from the repository root to regenerate")
                throw ExitCode(1)
            }
            printError("\(plan.files.count) generated file(s) up to date")
        } else {
            let written = try RepositoryGenerator.write(plan, outputRoot: outputRoot)
            for path in written { printError("wrote \(path)") }
            printError("\(plan.files.count) generated file(s), \(written.count) changed")
        }
    }
}

/// Writes a line to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

PayRPCCodegenCommand.main()
