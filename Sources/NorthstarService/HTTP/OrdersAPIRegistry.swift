import PayRPCSync

/// The HTTP clients of the profiles configured with an Orders v2 API. Kept in memory only, since
/// they hold the client secret or the access token, which are never stored.
final class OrdersAPIRegistry: Sendable {
    private let clients = Lock<[String: OrdersAPI]>([:])

    /// Sets (or, with nil, removes) the profile's client.
    func set(_ client: OrdersAPI?, profile: String) {
        clients.withLock { $0[profile] = client }
    }

    /// The profile's client, if configured since the server started.
    func client(profile: String) -> OrdersAPI? {
        clients.withLock { $0[profile] }
    }
}
