#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
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
public struct TatraService: TatraHandlers, GatewayService {
    let book: TatraBook
    let sandbox: TatraSandboxData

    public static let name = "tatra"
    /// `tatra`: -33000…-33099.
    public static let codeRange = ServiceCodeRange(service: name, first: -33000)
    public static let takesSandboxData = true

    /// Builds the service (it has no background work). Every time rule (the authorization's
    /// expiry) reads the profile's sandbox clock (`RequestContext.now`).
    /// - Parameter context: the store (per-profile state) and the sandbox data file.
    /// - Throws: ``SandboxDataError`` when the sandbox data file does not read.
    public init(context: ServiceContext) throws {
        self.init(store: context.store, sandbox: try context.sandboxData(TatraSandboxData.self))
    }

    /// The service on `store` with `sandbox`'s data and rules (tests with data in memory).
    init(store: any StateStore, sandbox: TatraSandboxData) {
        self.book = TatraBook(store: store)
        self.sandbox = sandbox
    }
}
