import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// A profile's `CardClient(config)` (namespace `northstar`, key `config`). The access token is a
/// secret: only its keyed hash is kept.
struct ClientConfiguration: JSONModel, ProfileDocument, Equatable {
    static let namespace = "northstar"
    static let key = "config"

    var clientID: String
    var environment: String
    var accessTokenHash: String?
}
