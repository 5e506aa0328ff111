import Foundation
import Logging
import PayRPCCore
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCStore
import DotpayService
import JournalService
import NorthstarService
import PBBAService
import TatraService
import PayRPCSecrets

/// The services a gateway serves, as a list of types: `payrpc serve` and `payrpc schemas` build
/// the same list from it. Adding a service is one line here and its own folder; nothing else
/// names it (its name, code range and whether it takes sandbox data are the type's own).
public enum ServiceCatalog {
    /// Every service, in the order it registers its methods.
    public static let standard: [any GatewayService.Type] = [
        TatraService.self, PBBAService.self, NorthstarService.self, DotpayService.self, JournalService.self,
    ]

    /// What the gateway gives every service; each gets it with its own section of the configuration.
    public struct Parts: Sendable {
        /// What services read and write through.
        public var store: any StateStore
        /// The data directory's keyed hasher (card numbers, tokens, PINs).
        public var secrets: SecretHasher
        /// The tester's controls.
        public var sandbox: SandboxControls
        /// Every connection the engine may serve.
        public var connections: ConnectionDirectory
        /// Where the services log.
        public var logger: Logger

        /// The parts.
        public init(
            store: any StateStore, secrets: SecretHasher, sandbox: SandboxControls, connections: ConnectionDirectory,
            logger: Logger
        ) {
            self.store = store
            self.secrets = secrets
            self.sandbox = sandbox
            self.connections = connections
            self.logger = logger
        }
    }

    /// Builds each of `types` (nothing starts) from `parts` and its section of `configuration`.
    /// - Throws: ``ServiceCatalogError`` when two services share a name or codes, or a
    ///   `--sandbox-data` entry names no service that takes sandbox data; what a service's
    ///   constructor throws (a sandbox data file that does not read).
    public static func build(
        _ types: [any GatewayService.Type], parts: Parts, configuration: GatewayConfiguration
    ) throws -> [any GatewayService] {
        try check(types, sandboxData: configuration.sandboxData)
        return try types.map { type in
            try type.init(
                context: ServiceContext(
                    store: parts.store, secrets: parts.secrets, sandbox: parts.sandbox,
                    connections: parts.connections, settings: configuration.settings(of: type.name),
                    logger: parts.logger))
        }
    }

    /// Refuses two services with one name or overlapping code ranges, and sandbox data for none.
    static func check(_ types: [any GatewayService.Type], sandboxData: [String: URL]) throws {
        for (index, type) in types.enumerated() {
            for other in types[..<index] {
                if other.name == type.name { throw ServiceCatalogError.duplicateName(type.name) }
                if other.codeRange.overlaps(type.codeRange) {
                    throw ServiceCatalogError.overlappingCodes(other.codeRange, type.codeRange)
                }
            }
        }
        let takesData = types.filter { $0.takesSandboxData }.map { $0.name }
        for (service, file) in sandboxData.sorted(by: { $0.key < $1.key }) where !takesData.contains(service) {
            throw SandboxDataError(
                file: file.path,
                message:
                    "--sandbox-data \(service)=…: no service named \(service) takes sandbox data (these do: \(takesData.joined(separator: ", ")))"
            )
        }
    }
}

/// Why a catalog of services cannot be served.
public enum ServiceCatalogError: Error, Equatable, CustomStringConvertible {
    /// Two services are named alike.
    case duplicateName(String)
    /// Two services' domain error codes overlap: a code would not name its service.
    case overlappingCodes(ServiceCodeRange, ServiceCodeRange)

    public var description: String {
        switch self {
        case .duplicateName(let name): "two services are named \(name)"
        case .overlappingCodes(let first, let second):
            "the error codes of two services overlap (\(first); \(second)): each takes a block of its own"
        }
    }
}

extension GatewayConfiguration {
    /// The section of the configuration that the service `name` is given.
    func settings(of name: String) -> ServiceSettings {
        var settings = ServiceSettings()
        settings.sandboxData = sandboxData[name]
        settings.backend = backends[name]
        settings.sandboxWebAPI = engine.sandbox
        settings.webAPITimeout = webAPITimeout
        return settings
    }
}
