import Foundation
import Logging
import PayRPCCore
import PayRPCSandbox
import PayRPCStore
import PayRPCSecrets

/// What the gateway gives every service it builds (``GatewayService/init(context:)``): one value,
/// the same shape for every service, so adding a service never adds a parameter list.
public struct ServiceContext: Sendable {
    /// Where the service keeps its state (its transactions save the sandbox's changes too).
    public var store: any StateStore
    /// The data directory's keyed hasher and sealer (card numbers, tokens, PINs).
    public var secrets: SecretHasher
    /// The tester's controls: every time-dependent rule reads its clock, every generated value
    /// comes from its generators.
    public var sandbox: SandboxControls
    /// Every connection the engine may serve, by profile (where callbacks go).
    public var connections: ConnectionDirectory
    /// The service's section of the gateway's configuration.
    public var settings: ServiceSettings
    /// Where the service logs (its background work above all: nobody else sees it fail).
    public var logger: Logger
    /// The client of every outgoing HTTP call, timing out after ``ServiceSettings/webAPITimeout``.
    public var httpClient: HTTPClient

    /// A context; what is not given is what a test of one service on its own needs: fresh,
    /// unseeded sandbox controls, an empty directory of connections, the default settings.
    public init(
        store: any StateStore, secrets: SecretHasher, sandbox: SandboxControls = SandboxControls(),
        connections: ConnectionDirectory = ConnectionDirectory(), settings: ServiceSettings = ServiceSettings(),
        logger: Logger = Logger(label: "payrpc.service")
    ) {
        self.store = store
        self.secrets = secrets
        self.sandbox = sandbox
        self.connections = connections
        self.settings = settings
        self.logger = logger
        self.httpClient = HTTPClient(timeout: settings.webAPITimeout, recorder: connections.calls)
    }

    /// The sandbox controls and the connections, as the engine is given them.
    public var environment: ServiceEnvironment { ServiceEnvironment(sandbox: sandbox, connections: connections) }
}

/// A service's section of the gateway's configuration: what `payrpc serve`'s flags say about it.
public struct ServiceSettings: Sendable {
    /// Its sandbox data file (`--sandbox-data NAME=FILE`); nil: the data it ships.
    public var sandboxData: URL?
    /// The Web API it delivers to for profiles that set none (`--journal-backend`); nil: the
    /// built-in sandbox Web API in sandbox mode, else nothing.
    public var backend: URL?
    /// Whether the gateway is in sandbox mode (`--no-sandbox` turns it off): the built-in sandbox
    /// Web API takes what no backend takes.
    public var sandboxWebAPI = true
    /// How long one request to a Web API may take, in seconds (`--web-api-timeout`).
    public var webAPITimeout = HTTPClient.defaultTimeout
    /// The waits between the tries of a request that got no answer.
    public var retryBackoff: [Duration] = [.milliseconds(100), .milliseconds(200), .milliseconds(400)]

    /// The defaults `payrpc serve` uses.
    public init() {}
}

extension ServiceContext {
    /// The service's sandbox data: its ``ServiceSettings/sandboxData`` file, else the data it ships.
    /// - Throws: ``SandboxDataError`` naming the file and the JSON Pointer of the bad value.
    public func sandboxData<Model: SandboxDataModel>(_ model: Model.Type) throws(SandboxDataError) -> Model {
        try SandboxData.load(model, from: settings.sandboxData)
    }
}
