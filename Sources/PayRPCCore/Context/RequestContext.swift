#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// Everything a handler knows about the call it is serving, besides its params.
///
/// Immutable, and a class so that the engine can hand the same context to every call of a
/// connection that carries no `_meta` (made again only when the connection's profile changes):
/// building and destroying one per call was a tenth of `rpc.health`'s cost.
public final class RequestContext: Sendable {
    /// The connection the call came from: its profile, per-connection state and server push.
    public let connection: ConnectionSession
    /// The state profile of the call (the connection's profile when the call arrived).
    public let profile: String
    /// Metadata from `params._meta`.
    public let meta: RequestMeta
    /// The connection's logger, carrying `connection.id` (the same for every call of the
    /// connection: a handler that logs names the method itself).
    public let logger: Logger
    /// Whether the server runs with the built-in sandboxes.
    public let isSandbox: Bool
    /// The tester's controls: the profile's clock, seeded generators and armed failures.
    public let sandbox: any SandboxAccess

    public init(
        connection: ConnectionSession, profile: String, meta: RequestMeta, logger: Logger, isSandbox: Bool,
        sandbox: any SandboxAccess
    ) {
        self.connection = connection
        self.profile = profile
        self.meta = meta
        self.logger = logger
        self.isSandbox = isSandbox
        self.sandbox = sandbox
    }

    /// The profile's sandbox time: what every time-dependent rule reads (never `Date()`).
    public var now: Date { sandbox.now(profile: profile) }

    /// A generator over the profile's stream `stream` (`"pbba.brn"`): seeded values are a
    /// deterministic function of the seed and the order of calls.
    public func random(_ stream: String) -> SandboxGenerator {
        SandboxGenerator(sandbox, profile: profile, stream: stream)
    }

    /// `length` characters from `alphabet`, drawn from the profile's stream `stream`.
    public func randomString(_ stream: String, length: Int, alphabet: String) -> String {
        sandbox.string(profile: profile, stream: stream, length: length, alphabet: alphabet)
    }

    /// Sends a notification to the caller's connection (also after the call has answered).
    @discardableResult
    public func notify<N: RPCNotification>(_ notification: N.Type, _ payload: N.Payload) -> Bool {
        connection.notify(notification, payload)
    }
}
