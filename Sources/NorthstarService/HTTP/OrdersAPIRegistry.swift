import PayRPCSync

/// The HTTP clients this gateway made for the profiles configured with an Orders v2 API, each
/// with the stored configuration it was made from: a client is used while that configuration is
/// the profile's, and made again from the store when it changed (``NorthstarService`` on another
/// gateway, or `northstar.configure` here). The store is the truth; this keeps the OAuth2 token a
/// client fetched.
final class OrdersAPIRegistry: Sendable {
    private let clients = Lock<[String: (configuration: ClientConfiguration, client: OrdersAPI)]>([:])

    /// The profile's client made from `configuration`: the one kept, or the one `make` makes
    /// now (under the lock, so that concurrent first calls share one client and its one token).
    /// - Throws: what `make` throws; nothing is kept then.
    func client<Failure: Error>(
        profile: String, for configuration: ClientConfiguration, make: () throws(Failure) -> OrdersAPI
    ) throws(Failure) -> OrdersAPI {
        try clients.withLock { clients throws(Failure) -> OrdersAPI in
            if let kept = clients[profile], kept.configuration == configuration { return kept.client }
            let client = try make()
            clients[profile] = (configuration, client)
            return client
        }
    }
}
