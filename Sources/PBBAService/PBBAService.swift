import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import PayRPCStore
import PayRPCSecrets

/// The Pay by Bank app (PBBA) merchant library and the merchant-backend half of its journey,
/// served as JSON-RPC (seed 001; docs/pbba.md).
///
/// The library's decisions (`showPBBAPopup`, `openBankingApp`, the remembered flag) run against a
/// sandbox device per profile; payment requests live in the merchant backend that every connection
/// shares; pop-up callbacks and status changes are pushed to the connection that showed the
/// pop-up. All state is in the store; only what is on screen (pop-ups, their expiry timers) is in
/// memory, and it belongs to connections, so nothing needs re-arming when the server starts: a
/// request's absolute expiry is stored and its status computed against the clock on every read.
///
/// Time is the caller's profile's sandbox clock (``RequestContext/now``), ids come from its seeded
/// streams (``SecureTokenGenerator``). The merchant backend is shared by every profile; a
/// request's times are on the clock of the profile that made it, a pop-up's on the clock of the
/// profile that shows it (payrpc's choice: the document has one app and one backend).
///
/// ```swift
/// router.register(PBBAService(store: store, sandbox: try SandboxData.load(PBBASandbox.self, from: file), secrets: secrets))
/// ```
public struct PBBAService: PBBAHandlers {
    let book: PBBAStateBook
    let registry: PopupRegistry
    let sandbox: PBBASandbox
    /// The magic amounts, by amount.
    let magic: MagicTable<Amount, PBBAMagicAmount>

    /// - Parameters:
    ///   - store: where requests, the device and the remembered flag are kept.
    ///   - sandbox: the sandbox's defaults and magic values.
    ///   - secrets: the data directory's keyed hasher (its server key); a request's store key is the
    ///     keyed hash of its secureToken.
    public init(store: any StateStore, sandbox: PBBASandbox = .standard, secrets: SecretHasher) {
        self.book = PBBAStateBook(store: store, secrets: secrets, defaultBankApps: sandbox.defaultBankApps)
        let registry = PopupRegistry()
        self.registry = registry
        self.sandbox = sandbox
        self.magic = MagicTable(sandbox.magicAmounts, key: \.amount)
        // A decision made through another gateway on the same store reaches the connection here
        // that follows the request. One made here has already claimed its watch (`decide`), so
        // its own event finds nothing to claim.
        book.onDecision { decision in
            guard decision.status != .inProgress, let watch = registry.claim(requestKey: decision.requestKey) else { return }
            registry.decided(decision.status, watch)
        }
    }
}
