#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCStore

/// The Tatra banka PayKey flow actions (seed 000) as JSON-RPC methods: flow lifecycle, setup,
/// contacts, payment, balance, IBAN and authorization, on a deterministic sandbox.
///
/// Per-profile state (wrong-PIN counter and blocked flag, authorization expiry, contacts
/// permission, held payments) lives in the store under namespace `tatra`; the flow state of a
/// connection (the payment awaiting authorization) lives on the connection. What the sandbox
/// answers comes from ``TatraSandboxData`` (`tatra-sandbox.json`).
public struct TatraService: RPCService {
    let store: any StateStore
    let sandbox: TatraSandboxData

    /// Every time rule (the authorization's expiry) reads the profile's sandbox clock
    /// (`RequestContext.now`).
    /// - Parameters:
    ///   - store: where per-profile state is kept.
    ///   - sandbox: the sandbox's data and rules.
    public init(store: any StateStore, sandbox: TatraSandboxData) {
        self.store = store
        self.sandbox = sandbox
    }

    /// Reads the sandbox data from `file` (`--sandbox-data FILE`), or the copy shipped with the
    /// service when nil.
    /// - Throws: ``TatraSandboxDataError``.
    public static func sandboxData(from file: URL?) throws -> TatraSandboxData {
        try TatraSandboxData.load(from: file)
    }

    /// Registers every tatra method and the `sandbox.tatra.*` helpers.
    public func register(on router: inout RouterBuilder) {
        let service = self
        router.registerInline(OnFlowStart.self) { _, context in service.onFlowStart(context) }
        router.registerInline(OnFlowStop.self) { _, context in service.onFlowStop(context) }
        router.register(FetchSetupData.self) { _, context in try await service.fetchSetupData(context) }
        router.register(FetchTopContacts.self) { _, context in try await service.fetchContacts(top: true, context) }
        router.register(FetchContacts.self) { _, context in try await service.fetchContacts(top: false, context) }
        router.registerInline(ExecutePayment.self) { params, context in try service.executePayment(params, context) }
        router.register(AuthorizePayment.self) { params, context in try await service.authorizePayment(params, context) }
        router.register(ResubmitPayment.self) { params, context in try await service.resubmitPayment(params, context) }
        router.register(FetchBalance.self) { _, context in try await service.fetchBalance(context) }
        router.register(GetIban.self) { _, context in try await service.getIban(context) }
        router.register(Authorize.self) { params, context in try await service.authorize(params, context) }
        router.register(SandboxSetContactPermission.self) { params, context in
            try await service.setContactPermission(params, context)
        }
        router.register(SandboxSetActivated.self) { params, context in try await service.setActivated(params, context) }
        router.register(SandboxResetProfile.self) { _, context in try await service.resetProfile(context) }
    }
}
