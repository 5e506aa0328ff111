import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// A profile's `CardClient(config)` (namespace `northstar`, key `config`). The access token is a
/// secret: its keyed hash says whether one is set, and the HTTP backend's secrets are kept only
/// sealed (AES-256-GCM under the store key, ``SecretHasher/seal(_:context:)``), so that every
/// gateway on the same store, and this one after a restart, can call the API the profile named.
struct ClientConfiguration: JSONModel, ProfileDocument, Equatable {
    static let namespace = "northstar"
    static let key = "config"
    /// The sealing contexts of the two secrets.
    static let clientSecretContext = "northstar.clientSecret"
    static let accessTokenContext = "northstar.accessToken.sealed"

    var clientID: String
    var environment: String
    var accessTokenHash: String?
    /// The client secret of an HTTP environment, sealed.
    var sealedClientSecret: String?
    /// The access token of an HTTP environment, sealed.
    var sealedAccessToken: String?
}
