import Foundation
import PayRPCTestSupport
import Testing
@testable import PayRPCCodegen

/// The committed `Sources/*/Generated/` files are exactly what the models generate.
@Suite(.longComputation) struct RepositoryDriftTests {
    @Test func committedGeneratedFilesMatchTheModels() throws {
        let root = TestPaths.repositoryRoot
        let plan = try RepositoryGenerator(root: root).plan()
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-codegen-drift-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        try RepositoryGenerator.write(plan, outputRoot: temporary)
        for file in plan.files {
            let fresh = try TestPaths.read(temporary.appendingPathComponent(file.path))
            let committed = try? TestPaths.read(root.appendingPathComponent(file.path))
            #expect(
                committed == fresh,
                "\(file.path) differs from what the models generate: run `swift run payrpc-codegen` from the repository root and commit the result"
            )
        }
        // Every committed generated file is one the models still produce.
        let sources = root.appendingPathComponent("Sources")
        let expected = Set(plan.files.map(\.path))
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let generated = sources.appendingPathComponent(module).appendingPathComponent("Generated")
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: generated.path) else { continue }
            for name in names.sorted() where name.hasSuffix(".swift") {
                let path = "Sources/\(module)/Generated/\(name)"
                #expect(
                    expected.contains(path),
                    "\(path) is no longer generated: run `swift run payrpc-codegen` (it removes stale files) and commit")
            }
        }
    }
}

/// The file-system side: `codegen.json`, module directories, `Generated/` folders, check mode.
@Suite struct RepositoryGeneratorTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-codegen-repo-\(UUID().uuidString)")

    func write(_ text: String, _ path: String) throws { try TestPaths.write(text, to: root.appendingPathComponent(path)) }

    func makeRepository() throws {
        try write(#"{"modules": {"TatraService": "tatra", "PBBAService": "pbba", "Later": "later"}}"#, "codegen.json")
        try write(
            "/// C.\npublic struct Contact: JSONModel {\n    public var name: String\n}\n",
            "Sources/TatraService/Models/Contact.swift")
        try write(
            "/// A.\npublic struct Account: JSONModel {\n    public var contact: Contact\n}\n",
            "Sources/TatraService/Account.swift")
        try write("this is not read", "Sources/TatraService/Generated/Old.swift")
        try write("struct NotAModel { var x: Int }\n", "Sources/PBBAService/Plain.swift")
    }

    @Test func writesOneFilePerModuleWithModelsAndThenChecksClean() throws {
        try makeRepository()
        defer { try? FileManager.default.removeItem(at: root) }
        let generator = RepositoryGenerator(root: root)
        let plan = try generator.plan()
        #expect(plan.files.map(\.path) == ["Sources/TatraService/Generated/TatraService+Generated.swift"])
        #expect(plan.notes == ["note: module Later (codegen.json) has no directory Sources/Later yet; skipped"])
        let text = plan.files[0].contents
        // File path order: Account.swift before Models/Contact.swift.
        let account = try #require(text.range(of: "extension Account {"))
        let contact = try #require(text.range(of: "extension Contact {"))
        #expect(account.lowerBound < contact.lowerBound)
        #expect(text.contains("(Sources/TatraService/Models/Contact.swift)"))
        #expect(RepositoryGenerator.differences(plan, outputRoot: root) == [plan.files[0].path])
        #expect(try RepositoryGenerator.write(plan, outputRoot: root) == [plan.files[0].path])
        #expect(RepositoryGenerator.differences(try generator.plan(), outputRoot: root).isEmpty)
        #expect(try RepositoryGenerator.write(try generator.plan(), outputRoot: root).isEmpty)  // unchanged: not rewritten
        // A field added to a model is drift until regenerated.
        try write(
            "/// C.\npublic struct Contact: JSONModel {\n    public var name: String\n    public var phone: String?\n}\n",
            "Sources/TatraService/Models/Contact.swift")
        #expect(RepositoryGenerator.differences(try generator.plan(), outputRoot: root) == [plan.files[0].path])
    }

    @Test func aModuleThatLostItsModelsHasItsGeneratedFileRemoved() throws {
        try makeRepository()
        defer { try? FileManager.default.removeItem(at: root) }
        try write("// stale\n", "Sources/PBBAService/Generated/PBBAService+Generated.swift")
        let plan = try RepositoryGenerator(root: root).plan()
        #expect(
            RepositoryGenerator.differences(plan, outputRoot: root).contains(
                "Sources/PBBAService/Generated/PBBAService+Generated.swift"))
        try RepositoryGenerator.write(plan, outputRoot: root)
        #expect(
            !FileManager.default.fileExists(
                atPath: root.appendingPathComponent("Sources/PBBAService/Generated/PBBAService+Generated.swift").path))
    }

    @Test func diagnosticsNameRepositoryRelativePaths() throws {
        try makeRepository()
        defer { try? FileManager.default.removeItem(at: root) }
        try write(
            "/// B.\npublic struct Broken: JSONModel {\n    public var pair: (Int, Int)\n}\n", "Sources/PBBAService/Broken.swift")
        #expect(
            throws: CodegenFailure([
                CodegenDiagnostic(
                    file: "Sources/PBBAService/Broken.swift", line: 3,
                    message: "type `(Int, Int)` is a tuple: JSON has no tuples; declare a model struct")
            ])
        ) {
            try RepositoryGenerator(root: root).plan()
        }
    }

    @Test func missingOrMalformedConfigurationIsAnError() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(throws: CodegenConfigurationError.self) { try RepositoryGenerator(root: root).plan() }
        try write(#"{"modules": ["TatraService"]}"#, "codegen.json")
        #expect(throws: CodegenConfigurationError.self) { try RepositoryGenerator(root: root).plan() }
    }
}
