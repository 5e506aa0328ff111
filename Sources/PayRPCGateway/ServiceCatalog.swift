import Foundation
import Logging
import PayRPCCore
import PayRPCStore
import DotpayService
import JournalService
import NorthstarService
import PBBAService
import TatraService

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
        let configuration: GatewayConfiguration
        let logger: Logger
        /// Whether the services will serve (false: built only to describe their methods, so they
        /// start no work of their own, such as the journal's deliveries).
        let serving: Bool
    }

    /// Every service, built-ins excluded.
    static func services(_ context: Context) throws -> [any RPCService] {
        let sandboxData = context.configuration.sandboxData
        return [
            SandboxAdminService(store: context.stores.administration, sandbox: context.sandbox),
            TatraService(store: context.stores.services, sandbox: try TatraService.sandboxData(from: sandboxData["tatra"])),
            PBBAService(store: context.stores.services, sandbox: try PBBASandbox.sandboxData(from: sandboxData["pbba"]),
                        secrets: context.secrets),
            NorthstarService(store: context.stores.services, sandbox: try NorthstarService.sandboxData(from: sandboxData["northstar"]),
                             secrets: context.secrets),
            DotpayService(store: context.stores.services, sandbox: try DotpayService.sandboxData(from: sandboxData["dotpay"]),
                          secrets: context.secrets),
            JournalService(store: context.stores.services, sandbox: context.sandbox, backend: context.configuration.journalBackend,
                           resendAtStart: context.serving),
        ]
    }
}
