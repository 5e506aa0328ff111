import Foundation
import PayRPCJSON
import Testing
@testable import PBBAService

extension PBBAServiceTests {
    /// `PBBASandbox.sandboxData(from:)`: the gateway's one-line loader.
    @Suite struct SandboxFile {
        private func write(_ text: String) throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("pbba-sandbox-\(UUID().uuidString).json")
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url
        }

        @Test("No file: the built-in sandbox")
        func standard() throws {
            let sandbox = try PBBASandbox.sandboxData(from: nil)
            #expect(sandbox == .standard)
            #expect(sandbox.defaultBankApps == 1)
            #expect(sandbox.requestGenerationFailureAmount == Amount("99.91"))
        }

        @Test("A file changes the device and the magic amounts, and the service follows it")
        func loaded() async throws {
            let url = try write(#"{"defaultBankApps": 0, "defaultRetrievalExpiryInterval": 90, "networkErrorAmount": "1.23"}"#)
            defer { try? FileManager.default.removeItem(at: url) }
            let sandbox = try PBBASandbox.sandboxData(from: url)
            #expect(sandbox.defaultBankApps == 0)
            #expect(sandbox.defaultRetrievalExpiryInterval == 90)
            #expect(sandbox.networkErrorAmount == Amount("1.23"))
            try await PBBATestEnvironment.run(sandbox: sandbox) { environment in
                let app = environment.harness.connect()
                let available = try await app.call("pbba.isCFIAppAvailable")
                #expect(available == .bool(false))
                let request = try await app.submit()
                #expect(request.retrievalExpiryInterval == 90)
                _ = await app.expectError(-33109, type: "networkError", "pbba.submitPaymentRequest",
                                          ["amount": "1.23", "currency": "GBP", "reference": "R"])
            }
        }

        @Test("A wrong member is named in the error",
              arguments: [#"{"defaultBankApps": -1}"#, #"{"defaultRetrievalExpiryInterval": "soon"}"#,
                          #"{"networkErrorAmount": 1.5}"#, "[1]", "not json"])
        func wrong(text: String) throws {
            let url = try write(text)
            defer { try? FileManager.default.removeItem(at: url) }
            #expect(throws: PBBASandboxError.self) { try PBBASandbox.sandboxData(from: url) }
        }

        @Test("A missing file is an error naming it")
        func missing() {
            let url = FileManager.default.temporaryDirectory
                .appendingPathComponent("nonexistent-pbba-sandbox-\(UUID().uuidString).json")
            do {
                _ = try PBBASandbox.sandboxData(from: url)
                Issue.record("a missing file loaded")
            } catch let error as PBBASandboxError {
                #expect(error.message.contains(url.lastPathComponent))
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }
}
