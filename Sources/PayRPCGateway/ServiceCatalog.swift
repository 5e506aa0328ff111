import Foundation
import Logging
import PayRPCCore
import PayRPCServiceKit
import PayRPCStore
import DotpayService
import JournalService
import NorthstarService
import PBBAService
import TatraService
import PayRPCSecrets

/// The services a gateway serves, constructed from the configuration: adding a service is one
/// line here and nothing in the core.
enum ServiceCatalog {
    /// What services are built from.
    struct Context {
        let stores: Gateway.Stores
        /// The data directory's keyed hasher (card numbers, tokens, PINs).
        let secrets: SecretHasher
        /// The tester's controls: every time-dependent rule reads its clock, every generated value
        /// comes from its generators.
        let sandbox: SandboxControls
        /// Every connection the engine may serve, by profile (the journal's `journal.syncFailed`, Dotpay's callbacks).
        let connections: ConnectionDirectory
        let configuration: GatewayConfiguration
        let logger: Logger
        /// Whether the services will serve (false: built only to describe their methods, so they
        /// start no work of their own, such as the journal's deliveries).
        let serving: Bool
    }

    /// How the Dotpay service sends URLC notifications: serving or not, logged where the server logs.
    private static func dotpayDelivery(_ context: Context) -> DotpayService.Delivery {
        var delivery = DotpayService.Delivery()
        delivery.serving = context.serving
        delivery.timeout = context.configuration.webAPITimeout
        delivery.logger = context.logger
        return delivery
    }

    /// Every service, built-ins excluded.
    static func services(_ context: Context) throws -> [any RPCService] {
        let sandboxData = context.configuration.sandboxData
        let takesData = [TatraSandboxData.service, PBBASandbox.service, NorthstarSandboxData.service, DotpaySandboxData.service]
        for (service, file) in sandboxData.sorted(by: { $0.key < $1.key }) where !takesData.contains(service) {
            throw SandboxDataError(
                file: file.path,
                message:
                    "--sandbox-data \(service)=…: no service named \(service) takes sandbox data (these do: \(takesData.joined(separator: ", ")))"
            )
        }
        let environment = ServiceEnvironment(sandbox: context.sandbox, connections: context.connections)
        return [
            SandboxAdminService(store: context.stores.administration, sandbox: context.sandbox),
            TatraService(
                store: context.stores.services, sandbox: try SandboxData.load(TatraSandboxData.self, from: sandboxData["tatra"])),
            PBBAService(
                store: context.stores.services, sandbox: try SandboxData.load(PBBASandbox.self, from: sandboxData["pbba"]),
                secrets: context.secrets),
            NorthstarService(
                store: context.stores.services,
                sandbox: try SandboxData.load(NorthstarSandboxData.self, from: sandboxData["northstar"]),
                secrets: context.secrets, requestTimeout: context.configuration.webAPITimeout),
            DotpayService(
                store: context.stores.services,
                sandbox: try SandboxData.load(DotpaySandboxData.self, from: sandboxData["dotpay"]),
                secrets: context.secrets, environment: environment, delivery: dotpayDelivery(context)),
            JournalService(
                store: context.stores.services, secrets: context.secrets,
                environment: environment,
                options: .init(
                    backend: context.configuration.journalBackend,
                    sandboxWebAPI: context.configuration.engine.sandbox, requestTimeout: context.configuration.webAPITimeout,
                    resendAtStart: context.serving,
                    sharedStore: context.serving && context.configuration.sharedStore != nil),
                logger: context.logger),
        ]
    }
}
