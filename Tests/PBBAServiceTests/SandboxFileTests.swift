import Foundation
import PayRPCJSON
import PayRPCServiceKit
import Testing
@testable import PBBAService
import PayRPCTestSupport

extension PBBAServiceTests {
    /// The kit's loader on `pbba-sandbox.json`.
    @Suite struct SandboxFile {
        private func write(_ text: String) throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("pbba-sandbox-\(UUID().uuidString).json")
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url
        }

        @Test("No file: the shipped file, which is the built-in sandbox")
        func standard() throws {
            let sandbox = try SandboxData.load(PBBASandbox.self, from: nil)
            #expect(sandbox == .standard)
            #expect(sandbox.defaultBankApps == 1)
            #expect(sandbox.magicAmounts.first == PBBAMagicAmount(amount: Amount("99.91")!, outcome: .requestGenerationFailed))
        }

        @Test("A file changes the device and the magic amounts, and the service follows it")
        func loaded() async throws {
            let url = try write(
                #"{"defaultBankApps": 0, "defaultRetrievalExpiryInterval": 90, "magicAmounts": [{"amount": "1.23", "outcome": "networkError"}]}"#
            )
            defer { try? FileManager.default.removeItem(at: url) }
            let sandbox = try SandboxData.load(PBBASandbox.self, from: url)
            #expect(sandbox.defaultBankApps == 0)
            #expect(sandbox.defaultRetrievalExpiryInterval == 90)
            #expect(sandbox.magicAmounts == [PBBAMagicAmount(amount: Amount("1.23")!, outcome: .networkError)])
            try await PBBATestEnvironment.run(sandbox: sandbox) { environment in
                let app = environment.harness.connect()
                let available = try await app.call("pbba.isCFIAppAvailable")
                #expect(available == .bool(false))
                let request = try await app.submit()
                #expect(request.retrievalExpiryInterval == 90)
                _ = await app.expectError(
                    -33109, type: "networkError", "pbba.submitPaymentRequest",
                    ["amount": "1.23", "currency": "GBP", "reference": "R"])
            }
        }

        @Test(
            "A wrong member is named in the error by its JSON Pointer",
            arguments: [
                (#"{"defaultBankApps": -1}"#, "/defaultBankApps"),
                (#"{"defaultRetrievalExpiryInterval": "soon"}"#, "/defaultRetrievalExpiryInterval"),
                (#"{"magicAmounts": [{"amount": 1.5, "outcome": "networkError"}]}"#, "/magicAmounts/0/amount"),
                (#"{"magicAmounts": [{"amount": "1.5", "outcome": "lost"}]}"#, "/magicAmounts/0/outcome"),
                ("[1]", ""), ("not json", ""),
            ])
        func wrong(text: String, pointer: String) throws {
            let url = try write(text)
            defer { try? FileManager.default.removeItem(at: url) }
            #expect { try SandboxData.load(PBBASandbox.self, from: url) } throws: { error in
                (error as? SandboxDataError)?.pointer == pointer && (error as? SandboxDataError)?.file == url.path
            }
        }

        @Test("A missing file is an error naming it")
        func missing() {
            let url = FileManager.default.temporaryDirectory
                .appendingPathComponent("nonexistent-pbba-sandbox-\(UUID().uuidString).json")
            do {
                _ = try SandboxData.load(PBBASandbox.self, from: url)
                Issue.record("a missing file loaded")
            } catch {
                #expect(error.file == url.path)
                #expect(error.message.hasPrefix("cannot be read"))
            }
        }
    }
}
