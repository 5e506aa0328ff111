import Foundation
import Testing

/// docs/architecture.md's module list is Package.swift's: every target under `Sources/` is named
/// there once, and nothing else is, so the list cannot go stale when a module is added, cut or
/// renamed.
@Suite struct ArchitectureModulesTests {
    /// The names of the targets Package.swift declares whose sources are `Sources/<name>/`.
    static func packageModules(root: URL) throws -> Set<String> {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try Regex(#"\.(?:target|executableTarget|systemLibrary)\(\s*name:\s*"([A-Za-z0-9_-]+)""#)
        let sources = root.appendingPathComponent("Sources")
        var names = Set<String>()
        for match in manifest.matches(of: declaration) {
            guard let name = match.output[1].substring.map(String.init) else { continue }
            var isDirectory: ObjCBool = false
            let path = sources.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                names.insert(name)
            }
        }
        return names
    }

    /// The modules docs/architecture.md lists under "## Modules": the `Name/` words that start the
    /// lines of its `Sources/` block.
    static func documentedModules(root: URL) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        guard let section = text.range(of: "## Modules"),
            let block = text.range(of: "\nSources/\n", range: section.upperBound..<text.endIndex)
        else { return [] }
        var names: [String] = []
        for line in text[block.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("  ") else { break }
            // `  TatraService/ PBBAService/   one module per service`: the words before the description.
            for word in line.split(separator: " ") {
                guard word.hasSuffix("/") else { break }
                names.append(String(word.dropLast()))
            }
        }
        return names
    }

    @Test func theDocumentListsEveryModuleOfThePackageOnce() throws {
        let root = TestPaths.repositoryRoot
        let declared = try Self.packageModules(root: root)
        let documented = try Self.documentedModules(root: root)
        #expect(!declared.isEmpty)
        let counted = Dictionary(documented.map { ($0, 1) }, uniquingKeysWith: +)
        #expect(counted.filter { $0.value > 1 }.keys.sorted() == [], "listed more than once in docs/architecture.md")
        #expect(
            declared.subtracting(documented).sorted() == [],
            "declared in Package.swift but missing from docs/architecture.md's module list")
        #expect(
            Set(documented).subtracting(declared).sorted() == [],
            "listed in docs/architecture.md but not a target of Package.swift")
    }

    @Test func everyFolderUnderSourcesIsATarget() throws {
        let root = TestPaths.repositoryRoot
        let declared = try Self.packageModules(root: root)
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)
            .filter { !$0.hasPrefix(".") }
        #expect(Set(folders).subtracting(declared).sorted() == [], "a folder under Sources/ that Package.swift does not declare")
    }
}
