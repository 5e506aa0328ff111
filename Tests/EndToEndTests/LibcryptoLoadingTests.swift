import Foundation
import PayRPCJSON
import Testing

/// libcrypto is loaded with `dlopen` on the first hash, seal or random draw (`Sources/CLibCrypto`),
/// not linked: a start that only answers never maps it, and a libcrypto that cannot be loaded fails
/// the call that needed it, with the reason in the log, while the gateway answers on.
@Suite struct LibcryptoLoadingTests {
    /// A data directory that already holds its server key (the first start draws it, which loads
    /// libcrypto), so the starts measured below have no reason to.
    private func preparedDataDirectory() async throws -> URL {
        let first = try await SpawnedServer(["serve", "--stdio"])
        #expect(await first.request("rpc.health")?["result"]?["status"] == "SERVING")
        first.closeInput()
        #expect(await first.waitForExit() == 0)
        return first.dataDirectory
    }

    /// The shared objects the process `pid` has mapped, by file name.
    private func mappedLibraries(_ pid: Int32) throws -> Set<String> {
        // Read to the end: the file's size is 0 to `stat`, and a read by that size stops early.
        let maps = String(
            decoding: try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/maps")).readToEnd() ?? Data(),
            as: UTF8.self)
        return Set(
            maps.split(separator: "\n").compactMap { line in
                line.split(separator: "/").last.map(String.init).flatMap { $0.contains(".so") ? $0 : nil }
            })
    }

    @Test func aStartThatOnlyAnswersDoesNotMapLibcryptoAndTheFirstSealDoes() async throws {
        let data = try await preparedDataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        #expect(await server.request("rpc.health")?["result"]?["status"] == "SERVING")
        let before = try mappedLibraries(server.pid)
        #expect(before.contains { $0.hasPrefix("libsqlite3") }, "\(before.sorted())")
        #expect(!before.contains { $0.hasPrefix("libcrypto") }, "\(before.sorted())")
        #expect(await server.request("sandbox.dotpay.setShopPin", ["pin": "1234"])?["result"] == .null)
        let after = try mappedLibraries(server.pid)
        #expect(after.contains { $0.hasPrefix("libcrypto") }, "\(after.sorted())")
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    @Test func aLibcryptoThatCannotBeLoadedFailsTheSealThatNeedsItAndSaysWhy() async throws {
        let data = try await preparedDataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await SpawnedServer(
            ["serve", "--stdio"], dataDirectory: data, environment: ["PAYRPC_LIBCRYPTO": "/nonexistent/libcrypto.so.3"])
        #expect(await server.request("rpc.health")?["result"]?["status"] == "SERVING")
        let failed = try #require(await server.request("sandbox.dotpay.setShopPin", ["pin": "1234"]))
        #expect(failed["error"]?["code"] == -32603)
        #expect(
            await server.waitForLog(
                containing:
                    "store error (cryptography): libcrypto could not be loaded (PAYRPC_LIBCRYPTO=/nonexistent/libcrypto.so.3: "))
        #expect(await server.request("rpc.health")?["result"]?["status"] == "SERVING")
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    /// A fresh data directory needs a server key, drawn with libcrypto: without it the start stops
    /// and says why.
    @Test func aFreshDataDirectoryWithoutLibcryptoIsAStartUpError() async throws {
        let server = try await SpawnedServer(
            ["serve", "--stdio"], environment: ["PAYRPC_LIBCRYPTO": "/nonexistent/libcrypto.so.3"])
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        #expect(
            await server.waitForLog(containing: "libcrypto could not be loaded (PAYRPC_LIBCRYPTO=/nonexistent/libcrypto.so.3: "))
        #expect(await server.waitForExit() == 2)
    }
}
