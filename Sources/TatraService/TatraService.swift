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
///
/// Every method that conforms to ``TatraMethod`` has its handler here, as a requirement of the
/// generated ``TatraHandlers`` protocol, which also registers them.
public struct TatraService: TatraHandlers {
    let book: TatraBook
    let sandbox: TatraSandboxData

    /// Every time rule (the authorization's expiry) reads the profile's sandbox clock
    /// (`RequestContext.now`).
    /// - Parameters:
    ///   - store: where per-profile state is kept.
    ///   - sandbox: the sandbox's data and rules.
    public init(store: any StateStore, sandbox: TatraSandboxData) {
        self.book = TatraBook(store: store)
        self.sandbox = sandbox
    }
}
