#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import PayRPCStore
import PayRPCSecrets

/// PayPal's Northstar native card client (seed 003) as JSON-RPC: `executeOrder` in both forms,
/// `validate` and `tokenizeCard`, on a sandbox that answers like Orders v2.
///
/// Orders, nonces and the client configuration live in the store per profile; every time rule
/// (card expiry, order and nonce lifetimes) reads the profile's sandbox clock, and every id (orders,
/// captures, nonces, debug ids) comes from its seeded streams. Card numbers, security codes and
/// access tokens are kept only as keyed hashes. Each method's handler is a requirement of the
/// generated ``NorthstarHandlers``.
public struct NorthstarService: NorthstarHandlers, GatewayService {
    let book: NorthstarBook
    let sandbox: NorthstarSandboxData
    /// The published test cards, by number.
    let testCards: MagicTable<String, TestCard>
    let secrets: SecretHasher
    let apis = OrdersAPIRegistry()
    /// How long one call to an Orders v2 API may take.
    let requestTimeout: TimeInterval

    public static let name = "northstar"
    /// `northstar`: -33300…-33399.
    public static let codeRange = ServiceCodeRange(service: name, first: -33300)
    public static let takesSandboxData = true

    /// Builds the service (it has no background work).
    /// - Parameter context: the store (orders, nonces, the configuration); the keyed hasher (card
    ///   numbers, nonces, tokens); the sandbox data file (test cards, lifetimes); the Web API
    ///   timeout of every call to an Orders v2 API.
    /// - Throws: ``SandboxDataError`` when the sandbox data file does not read.
    public init(context: ServiceContext) throws {
        let sandbox = try context.sandboxData(NorthstarSandboxData.self)
        self.book = NorthstarBook(store: context.store)
        self.sandbox = sandbox
        self.testCards = MagicTable(sandbox.testCards, key: \.number)
        self.secrets = context.secrets
        self.requestTimeout = context.settings.webAPITimeout
    }

    // MARK: Ids

    static let idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

    /// A new Orders v2 id (17 upper-case letters and digits) from the profile's stream `stream`.
    func newID(_ stream: String, _ context: RequestContext) -> String {
        context.randomString(stream, length: 17, alphabet: Self.idAlphabet)
    }

    /// An error of `kind` with one detail.
    func error(
        _ kind: NorthstarErrorKind, _ context: RequestContext, field: String? = nil, issue: String? = nil,
        _ description: String, links: [LinkDescription]? = nil
    ) -> NorthstarError {
        NorthstarError(
            kind, debugId: debugId(context),
            details: [ErrorDetail(field: field, issue: issue ?? kind.rawValue, description: description)],
            links: links)
    }

    /// `UNPROCESSABLE_ENTITY` with `details` (one per problem found), when there are any.
    func refuse(_ details: [ErrorDetail], _ context: RequestContext) throws(NorthstarError) {
        guard !details.isEmpty else { return }
        throw NorthstarError(.unprocessable, debugId: debugId(context), details: details)
    }

    /// A new error's debug id, from the profile's seeded stream.
    func debugId(_ context: RequestContext) -> String {
        context.randomString("northstar.debugId", length: 13, alphabet: "0123456789abcdef")
    }
}
