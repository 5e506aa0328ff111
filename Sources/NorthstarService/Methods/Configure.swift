import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Configures the profile's card client, as `CardClient(config)` does: client id, environment and
/// access token. Every other northstar method answers `CLIENT_NOT_CONFIGURED` until it is called.
///
/// The document lists ClientID, Environment and "Access token?" for the config. The environment
/// is `sandbox` (the built-in sandbox; the default), `live` (`https://api-m.paypal.com`) or the
/// base URL of an Orders v2 API; the last two are called over HTTP and need `clientSecret` (for
/// OAuth2 client credentials) or `accessToken`. The secrets are stored only sealed (AES-256-GCM
/// under the store key), so the configuration holds after a restart and on every gateway that
/// shares the store; they are never answered or logged.
public enum Configure: NorthstarMethod {
    public static let name = "northstar.configure"
    public static let traits: MethodTraits = [.mutates]

    /// The configuration.
    public struct Params: JSONModel, Equatable {
        /// The merchant's PayPal client id.
        /// - MinLength: 1
        /// - MaxLength: 200
        /// - Example: "AYSq3RDGsmBLJE-otTkBtM-jBRd1TCQwFf9RGfwddNXWz0uFU9ztymylOhRS"
        public var clientID: String
        /// `sandbox` (default), `live`, or a base URL.
        /// - MinLength: 1
        /// - MaxLength: 300
        public var environment: String = "sandbox"
        /// An OAuth2 access token, when the merchant's server got one.
        /// - MaxLength: 4096
        /// - Sensitive
        public var accessToken: String?
        /// The client secret, for `/v1/oauth2/token` (an HTTP environment only).
        /// - MaxLength: 4096
        /// - Sensitive
        public var clientSecret: String?
    }

    /// What is configured now (never the token itself).
    public struct Result: JSONModel, Equatable {
        /// The client id.
        public var clientID: String
        /// The environment.
        public var environment: String
        /// Whether an access token is set.
        public var accessTokenSet: Bool
    }

    public static let errors = [NorthstarErrorKind.unprocessable.descriptor]
}
