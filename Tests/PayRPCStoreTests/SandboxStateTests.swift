import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCStore
import PayRPCTestSupport
import PayRPCSQLite
import Testing

/// The sandbox controls' state as documents of the profile: saved with the call's own transaction,
/// read back when a server starts.
@Suite("Sandbox state in the store")
struct SandboxStateTests {
    static let instant = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a draw is saved in the transaction of the call that drew it: one commit, nothing left unsaved")
    func drawSavedWithTheCallsTransaction() async throws {
        try await withStore { store, _ in
            let sandbox = SandboxControls(
                realTime: RealTimeClock(reading: { Self.instant }),
                persistence: StoreSandboxPersistence(store: store))
            let services = SandboxedStore(store: store, sandbox: sandbox)
            sandbox.seed(profile: "p", 7)
            let token = sandbox.string(profile: "p", stream: "t", length: 8, alphabet: "abcdef")
            #expect(sandbox.hasUnsavedChanges)
            let commits = store.statistics.commits
            try await services.transaction("service") { try $0.put(token, profile: "p", namespace: "n", key: "k") }
            #expect(store.statistics.commits == commits + 1)
            #expect(!sandbox.hasUnsavedChanges)
            let generator = try #require(
                try await store.get(
                    SandboxGeneratorDocument.self, profile: "p", namespace: "sandbox",
                    key: "generator"))
            #expect(generator.seed == 7 && generator.explicit)
            #expect(generator.streams["t"] == 8)

            // A new process restores the position: its next value is the one that would have come.
            let expected = sandbox.string(profile: "p", stream: "t", length: 4, alphabet: "abcdef")
            let restarted = SandboxControls(realTime: RealTimeClock(reading: { Self.instant }))
            restarted.restore(try store.sandboxStatesAtStartUp(logger: quietLogger))
            #expect(restarted.seed(profile: "p") == 7)
            #expect(restarted.string(profile: "p", stream: "t", length: 4, alphabet: "abcdef") == expected)
        }
    }

    @Test("the clock and armed failures are saved and restored; a failure taken is gone from the store")
    func clockAndFailures() async throws {
        try await withStore { store, _ in
            let sandbox = SandboxControls(
                realTime: RealTimeClock(reading: { Self.instant }),
                persistence: StoreSandboxPersistence(store: store))
            try sandbox.advance(profile: "p", by: 90)
            let error = RPCError(RPCError.Code(-33000), "General error", data: ["type": "general"])
            sandbox.arm(profile: "p", method: "tatra.fetchSetupData", failure: InjectedFailure(error: error), count: 2)
            try await sandbox.saveChanges()
            #expect(!sandbox.hasUnsavedChanges)
            #expect(sandbox.takeFailure(profile: "p", method: "tatra.fetchSetupData") == error)
            #expect(sandbox.hasUnsavedChanges)
            try await sandbox.saveChanges()

            let restarted = SandboxControls(realTime: RealTimeClock(reading: { Self.instant }))
            restarted.restore(try store.sandboxStatesAtStartUp(logger: quietLogger))
            #expect(restarted.offset(profile: "p") == 90)
            #expect(restarted.armedFailures(profile: "p") == ["tatra.fetchSetupData": 1])
            #expect(restarted.takeFailure(profile: "p", method: "tatra.fetchSetupData") == error)
            #expect(restarted.takeFailure(profile: "p", method: "tatra.fetchSetupData") == nil)
        }
    }

    @Test("a sandbox document that does not read is left out; the server still starts")
    func unreadableDocumentIsLeftOut() async throws {
        try await withStore { store, _ in
            try await store.put(profile: "p", namespace: "sandbox", key: "clock", value: ["offsetSeconds": "soon"])
            try await store.put(SandboxClockDocument(offsetSeconds: 5), profile: "q", namespace: "sandbox", key: "clock")
            let states = try store.sandboxStatesAtStartUp(logger: quietLogger)
            #expect(states["p"]?.clock == nil)
            #expect(states["q"]?.clock?.offsetSeconds == 5)
        }
    }
}
