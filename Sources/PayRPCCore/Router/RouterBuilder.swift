import PayRPCJSON
import PayRPCSchema

/// A service: a set of methods that registers itself on the router at start-up.
public protocol RPCService: Sendable {
    /// Registers every method (and the notifications they declare) of the service.
    func register(on router: inout RouterBuilder)
}

/// Collects method registrations at start-up; ``build(validateResults:)`` freezes them into a
/// ``Router``. Registering a declaration with a handler is the only way a method exists.
public struct RouterBuilder {
    private var registrations: [Registration] = []
    private var extraNotifications: [NotificationDescriptor] = []

    struct Registration {
        let descriptor: MethodDescriptor
        let make: (MethodDescriptor, CompiledSchema, CompiledSchema?) -> MethodEntry
    }

    public init() {}

    /// Registers an async handler: it runs as a task off the loop thread, so it may wait on the
    /// store, a backend or a timer.
    public mutating func register<M: RPCMethod>(
        _ method: M.Type, handler: @escaping @Sendable (M.Params, RequestContext) async throws -> M.Result
    ) {
        add(method, answerInline: nil) { params in
            PreparedCall(
                run: { context in
                    let result = try await handler(params, context)
                    var writer = JSONWriter(capacity: 128)
                    result.encode(to: &writer)
                    return writer.bytes
                },
                runInline: nil, canonicalParams: { Self.canonical(params) })
        }
    }

    /// Registers a handler that answers at once on the loop thread. Only for pure, fast work
    /// (no I/O, no locks held for long): it runs inline with the parsing of the request.
    ///
    /// Inlinable, so that the closures are compiled in the service's module for its `M`: decoding
    /// the params, calling the handler and encoding the result then work on the concrete types.
    /// Compiled here, generically, every call went through witness tables, and the params were
    /// copied and destroyed through value-witness calls.
    @inlinable
    public mutating func registerInline<M: RPCMethod>(
        _ method: M.Type, handler: @escaping @Sendable (M.Params, RequestContext) throws -> M.Result
    ) {
        addInline(method, answerInline: { element, context, writer in
            let result = try handler(try Self.decodeParams(M.self, element), context)
            result.encode(to: &writer)
        }, bind: { params in
            PreparedCall(
                run: { context in
                    var writer = JSONWriter(capacity: 128)
                    try handler(params, context).encode(to: &writer)
                    return writer.bytes
                },
                runInline: { context, writer in try handler(params, context).encode(to: &writer) },
                canonicalParams: { Self.canonical(params) })
        })
    }

    /// ``registerInline(_:handler:)``'s registration, with the closures made.
    @usableFromInline
    mutating func addInline<M: RPCMethod>(
        _ method: M.Type,
        answerInline: @escaping @Sendable (JSONElement, RequestContext, inout JSONWriter) throws -> Void,
        bind: @escaping @Sendable (M.Params) -> PreparedCall
    ) {
        add(method, answerInline: answerInline, bind: bind)
    }

    /// Declares a notification that no method lists (so it still appears in `rpc.discover`).
    public mutating func declare<N: RPCNotification>(notification: N.Type) {
        extraNotifications.append(NotificationDescriptor(notification))
    }

    private mutating func add<M: RPCMethod>(
        _ method: M.Type, answerInline: (@Sendable (JSONElement, RequestContext, inout JSONWriter) throws -> Void)?,
        bind: @escaping @Sendable (M.Params) -> PreparedCall
    ) {
        let descriptor = MethodDescriptor(method)
        registrations.append(Registration(descriptor: descriptor) { descriptor, params, result in
            MethodEntry(
                descriptor: descriptor, paramsValidator: params, resultValidator: result,
                prepare: { (element: JSONElement) throws(RPCError) -> PreparedCall in
                    bind(try Self.decodeParams(M.self, element))
                },
                answerInline: answerInline)
        })
    }

    /// Params in canonical form: what their codec writes.
    @usableFromInline
    static func canonical<Params: JSONEncodable>(_ params: Params) -> [UInt8] {
        var writer = JSONWriter(capacity: 128)
        params.encode(to: &writer)
        return writer.bytes
    }

    /// Reads validated params into `M.Params`; a codec failure is an invalid-params error.
    /// Inlinable with ``registerInline(_:handler:)``, so that the codec is called directly.
    @inlinable
    static func decodeParams<M: RPCMethod>(_ method: M.Type, _ element: JSONElement) throws(RPCError) -> M.Params {
        do throws(JSONDecodingError) {
            return try M.Params(json: element)
        } catch {
            throw RPCError.invalidParams([SchemaViolation(pointer: error.pointer, keyword: "decode", message: error.message)])
        }
    }

    /// Freezes the registrations: adds the derived bare names (``BareAliases``), compiles every
    /// schema once and checks that no name or alias is used twice.
    /// - Throws: ``RouterBuildError`` naming the clash or the schema that does not compile.
    public func build(validateResults: Bool) throws(RouterBuildError) -> Router {
        var names: [String: String] = [:]
        var table: [(String, MethodEntry)] = []
        var entries: [MethodEntry] = []
        var notifications: [String: NotificationDescriptor] = [:]
        let bare = BareAliases.derive(registrations.map(\.descriptor))
        for registration in registrations {
            var descriptor = registration.descriptor
            if let extra = bare[descriptor.name] { descriptor = MethodDescriptor(descriptor, aliases: descriptor.aliases + extra) }
            for name in [descriptor.name] + descriptor.aliases {
                if let owner = names[name] {
                    throw RouterBuildError(message: "the name \(name) of \(descriptor.name) is already used by \(owner)")
                }
                names[name] = descriptor.name
            }
            let paramsValidator: CompiledSchema
            var resultValidator: CompiledSchema?
            do {
                paramsValidator = try CompiledSchema(Router.documentSchema(descriptor.paramsSchema, definitions: descriptor.definitions))
                if validateResults {
                    resultValidator = try CompiledSchema(Router.documentSchema(descriptor.resultSchema,
                                                                               definitions: descriptor.definitions))
                }
            } catch {
                throw RouterBuildError(message: "the schema of \(descriptor.name) does not compile: \(error)")
            }
            let entry = registration.make(descriptor, paramsValidator, resultValidator)
            entries.append(entry)
            for name in [descriptor.name] + descriptor.aliases { table.append((name, entry)) }
        }
        for descriptor in extraNotifications { notifications[descriptor.name] = descriptor }
        for registration in registrations {
            for descriptor in registration.descriptor.notificationDescriptors where notifications[descriptor.name] == nil {
                notifications[descriptor.name] = descriptor
            }
        }
        var notificationValidators: [String: CompiledSchema] = [:]
        if validateResults {
            for (name, descriptor) in notifications {
                do {
                    notificationValidators[name] = try CompiledSchema(
                        Router.documentSchema(descriptor.paramsSchema, definitions: descriptor.definitions))
                } catch {
                    throw RouterBuildError(message: "the schema of notification \(name) does not compile: \(error)")
                }
            }
        }
        return Router(entries: entries, table: MethodTable(table),
                      notifications: notifications.values.sorted { $0.name < $1.name },
                      notificationValidators: notificationValidators)
    }
}

/// Why the router could not be built (a start-up error).
public struct RouterBuildError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    public var description: String { message }
}
