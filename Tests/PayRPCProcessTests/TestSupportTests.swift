import Foundation
import PayRPCTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The helpers the other test targets lean on do what they say: a test that relies on a large stack
/// gets one, and a test whose conformance data is missing fails saying where it looked.
@Suite struct TestSupportTests {
    /// The body runs on another thread, made with the stack size asked for (what
    /// `deeplyNestedValuesAgainstRecursiveSchemas` needs under AddressSanitizer), and its value
    /// comes back.
    @Test func largeStackRunsTheBodyOnAThreadWithThatStack() throws {
        let requested = 64 << 20
        let caller = UInt(pthread_self())
        let (thread, size) = try LargeStack.run(bytes: requested) { (UInt(pthread_self()), Thread.current.stackSize) }
        #expect(thread != caller)
        #expect(size >= requested)
    }

    struct Thrown: Error, Equatable {}

    @Test func largeStackRethrowsWhatTheBodyThrew() {
        #expect(throws: Thrown.self) { try LargeStack.run(bytes: 1 << 20) { () throws -> Int in throw Thrown() } }
    }

    /// A missing file is an error that names the path and the variable that names another folder.
    @Test func missingTestDataNamesThePathAndTheVariable() {
        let relative = "no-such-folder-\(UUID().uuidString)/file.json"
        do {
            _ = try SharedTestData.url(relative)
            Issue.record("\(relative) was found")
        } catch {
            let text = "\(error)"
            #expect(text.contains(SharedTestData.directory.appendingPathComponent(relative).path), "\(text)")
            #expect(text.contains("PAYRPC_TESTDATA"), "\(text)")
        }
        #expect(throws: SharedTestData.Missing.self) { try SharedTestData.directory(containing: relative) }
    }

    /// The data the conformance tests read is there in this run: scripts/test stops before
    /// building when it is not, and so does every test that reads it.
    @Test func theConformanceDataIsWhereTheTestsLook() throws {
        let folder = try SharedTestData.url("JSON-Schema-Test-Suite/draft7")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(files.count > 20, "\(folder.path) holds \(files.count) JSON files")
        _ = try SharedTestData.url("openrpc/openrpc-meta-schema.json")
    }
}

/// Every fuzz target that has a folder is one `Fuzz/run --all` runs (and so scripts/test --all),
/// with a seed corpus: a target added to Package.swift and `Fuzz/Targets/` but not to the script's
/// list would never be fuzzed.
@Suite struct FuzzTargetListTests {
    @Test func fuzzRunListsEveryTargetAndEachHasACorpus() throws {
        let root = SharedTestData.repositoryRoot
        let script = try String(contentsOf: root.appendingPathComponent("Fuzz/run"), encoding: .utf8)
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("targets=(") })
        let listed = line.dropFirst("targets=(".count).dropLast().split(separator: " ").map(String.init)
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Fuzz/Targets").path)
        #expect(Set(listed) == Set(folders), "Fuzz/run lists \(listed.sorted()), Fuzz/Targets holds \(folders.sorted())")
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declarations = try #require(manifest.range(of: "let fuzzTargets:")).upperBound
        let declared = manifest[declarations...].prefix(1500)  // the list, which follows its name
        for target in listed {
            #expect(declared.contains("\"\(target)\","), "Package.swift's fuzzTargets has no \(target)")
            let corpus = root.appendingPathComponent("Fuzz/Corpus/\(target)").path
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []).count > 0, "\(corpus) is empty")
        }
    }
}
