import Foundation
import PayRPCJSON
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `payrpc serve --ephemeral`: state in a temporary directory of its own, gone once the server
/// has stopped however it stopped; and the persistent default unchanged without the flag.
@Suite struct EphemeralDataTests {
    /// How a test stops a server.
    enum Stop: String, CaseIterable, CustomTestStringConvertible {
        case endOfInput, sigterm, sigint
        var testDescription: String { rawValue }
    }

    static let wrongPIN: JSONValue = ["pincode": "0000"]

    /// The data directory the server names in its "payrpc started" log line.
    static func dataDirectory(of server: SpawnedServer) async throws -> URL {
        while let line = await server.logs.next(timeout: 30) {
            guard line.contains("payrpc started"), let range = line.range(of: " data=") else { continue }
            let path = line[range.upperBound...].prefix { $0 != " " }
            return URL(fileURLWithPath: String(path), isDirectory: true)
        }
        Issue.record("the server logged no 'payrpc started ... data=' line: \(server.logText)")
        throw CancellationError()
    }

    /// Whether a wrong PIN answered `wrongPin` and left the app blocked.
    static func wrongPINBlocks(_ server: SpawnedServer, id: Int) async throws -> Bool {
        let answer = try #require(await server.request("tatra.authorize", wrongPIN, id: .int(id)))
        #expect(answer["error"]?["data"]?["type"] == "wrongPin", "\(answer)")
        guard case .bool(let blocked)? = answer["error"]?["data"]?["applicationBlocked"] else {
            Issue.record("no applicationBlocked in \(answer)")
            throw CancellationError()
        }
        return blocked
    }

    @Test(arguments: Stop.allCases)
    func theDirectoryIsGoneOnceTheServerStopped(stop: Stop) async throws {
        // A home of its own, to see that nothing is left there either (Foundation's URL loading
        // makes cookie and cache folders under the XDG homes).
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try await SpawnedServer(
            ["serve", "--stdio", "--ephemeral"],
            environment: ["HOME": home.path, "XDG_DATA_HOME": nil, "XDG_CACHE_HOME": nil])
        let directory = try await Self.dataDirectory(of: server)
        #expect(directory.lastPathComponent.hasPrefix("payrpc-ephemeral-\(server.pid)-"))
        #expect(try await Self.wrongPINBlocks(server, id: 1) == false)
        // While it runs it is an ordinary data directory: the store and the server key are there,
        // and only its owner may read it.
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.contains("payrpc.sqlite") && files.contains("server.key"), "\(files)")
        let mode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        switch stop {
        case .endOfInput: server.closeInput()
        case .sigterm: server.signal(SIGTERM)
        case .sigint: server.signal(SIGINT)
        }
        #expect(await server.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: directory.path), "\(server.logText)")
        #expect(server.logText.contains("removed the ephemeral data directory"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == [])
    }

    @Test func twoEphemeralServersDoNotShareState() async throws {
        let first = try await SpawnedServer(["serve", "--stdio", "--ephemeral"])
        let second = try await SpawnedServer(["serve", "--stdio", "--ephemeral"])
        let firstDirectory = try await Self.dataDirectory(of: first)
        let secondDirectory = try await Self.dataDirectory(of: second)
        #expect(firstDirectory != secondDirectory)
        // Three wrong PINs in a row block the first server's app; the second's is untouched.
        var blocked: [Bool] = []
        for id in 1...3 { blocked.append(try await Self.wrongPINBlocks(first, id: id)) }
        #expect(blocked == [false, false, true])
        #expect(try await Self.wrongPINBlocks(second, id: 1) == false)
        first.closeInput()
        #expect(await first.waitForExit() == 0)
        // A server started after the first one stopped starts clean too.
        let third = try await SpawnedServer(["serve", "--stdio", "--ephemeral"])
        #expect(try await Self.wrongPINBlocks(third, id: 1) == false)
        for server in [second, third] {
            server.closeInput()
            #expect(await server.waitForExit() == 0)
        }
        #expect(!FileManager.default.fileExists(atPath: secondDirectory.path))
    }

    @Test func withoutTheFlagStatePersistsInTheDefaultDataDirectory() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment: [String: String?] = ["XDG_DATA_HOME": home.path]
        let first = try await SpawnedServer(["serve", "--stdio"], environment: environment)
        #expect(try await Self.dataDirectory(of: first) == home.appendingPathComponent("payrpc", isDirectory: true))
        var blocked: [Bool] = []
        for id in 1...3 { blocked.append(try await Self.wrongPINBlocks(first, id: id)) }
        #expect(blocked == [false, false, true])
        first.closeInput()
        #expect(await first.waitForExit() == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("payrpc").path)
        #expect(files.contains("payrpc.sqlite") && files.contains("server.key"), "\(files)")
        // The next server in the same data directory remembers the blocked app.
        let second = try await SpawnedServer(["serve", "--stdio"], environment: environment)
        #expect(try await Self.wrongPINBlocks(second, id: 1) == true)
        second.closeInput()
        #expect(await second.waitForExit() == 0)
    }

    @Test func ephemeralAndDataExcludeEachOther() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-never-\(UUID().uuidString)")
        let server = try await SpawnedServer(["serve", "--stdio", "--ephemeral", "--data", data.path])
        #expect(await server.waitForExit() == 64)
        #expect(server.logText.contains("--ephemeral and --data exclude each other"))
        #expect(!FileManager.default.fileExists(atPath: data.path))
    }
}
