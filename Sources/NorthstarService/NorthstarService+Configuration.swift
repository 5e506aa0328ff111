import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCStore
import PayRPCSecrets

extension NorthstarService {
    /// `northstar.configure`.
    public func configure(_ params: Configure.Params, _ context: RequestContext) async throws -> Configure.Result {
        if params.environment != "sandbox" {
            let base = params.environment == "live" ? "https://api-m.paypal.com" : params.environment
            guard let url = URL(string: base), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                throw error(
                    .unprocessable, context, field: "/environment", issue: "ENVIRONMENT_NOT_SUPPORTED",
                    "the environment is sandbox, live, or the http(s) base URL of an Orders v2 API")
            }
            guard params.clientSecret != nil || params.accessToken != nil else {
                throw error(
                    .unprocessable, context, field: "/clientSecret", issue: "CREDENTIALS_MISSING",
                    "an HTTP environment needs clientSecret (OAuth2 client credentials) or accessToken")
            }
        }
        let http = params.environment != "sandbox"
        let configuration = ClientConfiguration(
            clientID: params.clientID, environment: params.environment,
            accessTokenHash: try params.accessToken.map { try secrets.keyedHash($0, context: "northstar.accessToken") },
            sealedClientSecret: try params.clientSecret.flatMap {
                http ? try secrets.seal($0, context: ClientConfiguration.clientSecretContext) : nil
            },
            sealedAccessToken: try params.accessToken.flatMap {
                http ? try secrets.seal($0, context: ClientConfiguration.accessTokenContext) : nil
            })
        try await book.saveConfiguration(configuration, profile: context.profile)
        return Configure.Result(
            clientID: configuration.clientID, environment: configuration.environment,
            accessTokenSet: configuration.accessTokenHash != nil)
    }

    /// The profile's configuration; `CLIENT_NOT_CONFIGURED` naming what is missing when there is none.
    func requireConfiguration(_ context: RequestContext) async throws -> ClientConfiguration {
        guard let configuration = try await book.configuration(profile: context.profile) else {
            throw error(
                .notConfigured, context, field: "clientID", issue: "CLIENT_ID_MISSING",
                "the card client has no configuration: call northstar.configure {clientID} first")
        }
        return configuration
    }
}
