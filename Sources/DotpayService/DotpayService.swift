import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import PayRPCStore

/// The Dotpay SDK 1.4 for iOS (seed 004, in Polish) as JSON-RPC: settings, channels and payments,
/// 1Click cards (internal and external), the payment history and its observers, on a
/// deterministic sandbox.
///
/// Settings, cards and the history live in the store per profile. Payment ids, `control` values
/// and card ids come from the profile's seeded streams; a payment that completes later does so on
/// the profile's sandbox clock. Card numbers are kept only masked with a keyed hash, CVVs never.
/// Delegate callbacks are pushed to every connection of the profile (history callbacks to its
/// observers). Each method's handler is a requirement of the generated ``DotpayHandlers``.
public struct DotpayService: DotpayHandlers {
    let book: DotpayBook
    let sandbox: DotpaySandboxData
    /// The magic amounts, by amount.
    let magic: MagicTable<Amount, MagicAmount>
    let secrets: SecretHasher
    let connections = ProfileConnections()

    /// - Parameters:
    ///   - store: where settings, cards and the history are kept.
    ///   - sandbox: languages, currencies, channels and magic values.
    ///   - secrets: the data directory's keyed hasher (card numbers).
    public init(store: any StateStore, sandbox: DotpaySandboxData, secrets: SecretHasher) {
        self.book = DotpayBook(store: store)
        self.sandbox = sandbox
        self.magic = MagicTable(sandbox.magicAmounts, key: \.amount)
        self.secrets = secrets
    }

    // MARK: Settings state

    /// The profile's settings (defaults when none are stored); the caller's connection joins the
    /// profile's notification audience.
    func settings(_ context: RequestContext) async throws -> DotpaySettings {
        connections.track(context.connection)
        return try await book.settings(context.profile)
    }

    /// Changes the profile's settings atomically.
    func updateSettings<R: Sendable>(_ context: RequestContext,
                                     _ body: @escaping @Sendable (inout DotpaySettings) throws -> R) async throws -> R {
        connections.track(context.connection)
        return try await book.updateSettings(context.profile, body)
    }
}
