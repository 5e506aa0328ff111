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
/// The gateway builds it from its ``ServiceContext`` (``init(context:)``) and runs it
/// (``run()``) beside the transport.
public struct PBBAService: PBBAHandlers, GatewayService {
    let book: PBBAStateBook
    let registry: PopupRegistry
    let sandbox: PBBASandbox
    /// The magic amounts, by amount.
    let magic: MagicTable<Amount, PBBAMagicAmount>

    /// Signalled once ``run()`` listens to the decisions made through other gateways.
    public let readiness = ServiceReadiness()

    public static let name = "pbba"
    /// `pbba`: -33100…-33199.
    public static let codeRange = ServiceCodeRange(service: name, first: -33100)
    public static let takesSandboxData = true

    /// Builds the service; it starts nothing (``run()`` does).
    /// - Parameter context: the store (requests, the device, the remembered flag); the keyed
    ///   hasher (a request's store key is the keyed hash of its secureToken); the sandbox data file.
    /// - Throws: ``SandboxDataError`` when the sandbox data file does not read.
    public init(context: ServiceContext) throws {
        try self.init(store: context.store, sandbox: context.sandboxData(PBBASandbox.self), secrets: context.secrets)
    }

    /// The service on `store` with `sandbox`'s defaults and magic values (tests of the library alone).
    init(store: any StateStore, sandbox: PBBASandbox = .standard, secrets: SecretHasher) {
        self.book = PBBAStateBook(store: store, secrets: secrets, defaultBankApps: sandbox.defaultBankApps)
        self.registry = PopupRegistry()
        self.sandbox = sandbox
        self.magic = MagicTable(sandbox.magicAmounts, key: \.amount)
    }

    /// Until cancelled: a decision made through another gateway on the same store reaches the
    /// connection here that follows the request. One made here has already claimed its watch
    /// (`decide`), so its own event finds nothing to claim.
    public func run() async throws {
        let registry = registry
        try await BackgroundWork.run(readiness: readiness) { work in
            work.hold(
                book.onDecision { decision in
                    guard decision.status != .inProgress, let watch = registry.claim(requestKey: decision.requestKey)
                    else { return }
                    registry.decided(decision.status, watch)
                })
        }
    }
}
