import Foundation
import PayRPCJSON
import PayRPCSchema
import Testing

/// Runs the official JSON-Schema-Test-Suite draft-07 files (`tests/draft7/*.json`, not
/// `optional/`) from `../shared/testdata/JSON-Schema-Test-Suite/draft7/`.
@Suite("JSON-Schema-Test-Suite draft7")
struct JSONSchemaTestSuiteTests {
    /// Files not run at all, with the reason.
    static let skippedFiles: [String: String] = [
        "refRemote.json":
            "needs documents served from http://localhost:1234 (the suite's remotes/), which are not part of the test data"
    ]

    /// Individual cases (`file: group / test`) known to fail, with the reason. The test fails
    /// when a case fails that is not listed, and when a listed case passes (so the list stays true).
    static let knownFailures: [String: String] = [:]

    @Test("every case passes, except the listed ones")
    func suite() throws {
        let files = try TestData.draft7Files()
        #expect(files.count > 30)
        var passed = 0, total = 0
        var unexpected: [String] = []
        var fixed: [String] = []
        for file in files where Self.skippedFiles[file] == nil {
            guard case .array(let groups) = try TestData.json("\(TestData.draft7Folder)/\(file)") else {
                Issue.record("\(file) is not an array of groups")
                continue
            }
            for group in groups {
                let groupName = group["description"]?.stringValue ?? "?"
                let compiled: Result<CompiledSchema, SchemaCompileError>
                do throws(SchemaCompileError) {
                    compiled = .success(try CompiledSchema(group["schema"] ?? true))
                } catch {
                    compiled = .failure(error)
                }
                guard case .array(let tests)? = group["tests"] else { continue }
                for test in tests {
                    let name = "\(file): \(groupName) / \(test["description"]?.stringValue ?? "?")"
                    let expected = test["valid"] == .bool(true)
                    total += 1
                    var outcome: String?
                    switch compiled {
                    case .failure(let error):
                        outcome = "compile error: \(error)"
                    case .success(let schema):
                        let tape = try TestData.tape(test["data"] ?? .null)
                        let quick = schema.isValid(tape.root)
                        let violations = schema.validate(tape.root)
                        if quick != expected || violations.isEmpty != expected {
                            outcome = "expected \(expected ? "valid" : "invalid"), isValid \(quick), violations \(violations)"
                        }
                    }
                    let known = Self.knownFailures[name] != nil
                    if let outcome {
                        if !known { unexpected.append("\(name): \(outcome)") }
                    } else {
                        passed += 1
                        if known { fixed.append(name) }
                    }
                }
            }
        }
        print(
            "JSON-Schema-Test-Suite draft7: \(passed)/\(total) cases passed (skipped files: \(Self.skippedFiles.keys.sorted().joined(separator: ", ")); known failures: \(Self.knownFailures.count))"
        )
        #expect(unexpected.isEmpty, "unexpected failures:\n\(unexpected.joined(separator: "\n"))")
        #expect(fixed.isEmpty, "listed as known failures but pass:\n\(fixed.joined(separator: "\n"))")
        #expect(passed + Self.knownFailures.count == total)
    }
}
