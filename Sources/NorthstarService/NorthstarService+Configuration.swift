import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCStore

extension NorthstarService {
    /// `northstar.configure`.
    public func configure(_ params: Configure.Params, _ context: RequestContext) async throws -> Configure.Result {
        guard params.environment == "sandbox" else {
            throw error(.unprocessable, context, field: "/environment", issue: "ENVIRONMENT_NOT_SUPPORTED",
                        "this build serves the built-in sandbox only; an Orders v2 API over HTTP (live or a base URL) is not available yet")
        }
        let configuration = ClientConfiguration(
            clientID: params.clientID, environment: params.environment,
            accessTokenHash: params.accessToken.map { secrets.keyedHash($0, context: "northstar.accessToken") })
        try await store.put(configuration, profile: context.profile, namespace: ClientConfiguration.namespace,
                            key: ClientConfiguration.key)
        return Configure.Result(clientID: configuration.clientID, environment: configuration.environment,
                                accessTokenSet: configuration.accessTokenHash != nil)
    }

    /// The profile's configuration; `CLIENT_NOT_CONFIGURED` naming what is missing when there is none.
    func requireConfiguration(_ context: RequestContext) async throws -> ClientConfiguration {
        guard let configuration = try await store.get(ClientConfiguration.self, profile: context.profile,
                                                      namespace: ClientConfiguration.namespace, key: ClientConfiguration.key)
        else {
            throw error(.notConfigured, context, field: "clientID", issue: "CLIENT_ID_MISSING",
                        "the card client has no configuration: call northstar.configure {clientID} first")
        }
        return configuration
    }
}
