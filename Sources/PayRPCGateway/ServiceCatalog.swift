import Foundation
import Logging
import PayRPCCore
import PayRPCStore

/// The services a gateway serves, constructed from the configuration: adding a service is one
/// line here and nothing in the core.
enum ServiceCatalog {
    /// What services are built from.
    struct Context {
        let store: any StateStore
        let configuration: GatewayConfiguration
        let logger: Logger
    }

    /// Every service, built-ins excluded.
    static func services(_ context: Context) throws -> [any RPCService] {
        [
            SandboxAdminService(store: context.store),
        ]
    }
}
