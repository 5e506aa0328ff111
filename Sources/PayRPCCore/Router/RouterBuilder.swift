import PayRPCJSON
import PayRPCSchema

/// A service: a set of methods that registers itself on the router at start-up.
public protocol RPCService: Sendable {
    /// Registers every method (and the notifications they declare) of the service.
    func register(on router: inout RouterBuilder)
}

/// Collects method registrations at start-up; ``build(validateResults:)`` freezes them into a
/// ``Router``. Registering a declaration with a handler is the only way a method exists.
///
/// Each registration has two forms, chosen by the compiler for the method's params: those whose
/// generated decoder checks the schema while it reads (``CheckedJSONDecodable``: every generated
/// params model the generator can check) decode and validate in one pass; the others are
/// validated by the compiled schema first, then decoded.
public struct RouterBuilder {
    private var registrations: [Registration] = []
    private var extraNotifications: [NotificationDescriptor] = []

    struct Registration {
        let descriptor: MethodDescriptor
        let paramsSchema: ParamsSchema
        let checksParams: Bool
        let prepare: @Sendable (JSONElement) throws(RPCError) -> PreparedCall
        let answerInline: InlineAnswer?
    }

    public init() {}

    /// Registers an async handler: it runs as a task off the loop thread, so it may wait on the
    /// store, a backend or a timer.
    public mutating func register<M: RPCMethod>(
        _ method: M.Type, handler: @escaping @Sendable (M.Params, RequestContext) async throws -> M.Result
    ) {
        add(method, checksParams: false, answerInline: { _ in nil }) { schema in
            { element throws(RPCError) in Self.bind(M.self, try Self.decodeParams(M.self, element), to: handler) }
        }
    }

    /// ``register(_:handler:)`` for params whose decoder checks their schema as it reads.
    public mutating func register<M: RPCMethod>(
        _ method: M.Type, handler: @escaping @Sendable (M.Params, RequestContext) async throws -> M.Result
    ) where M.Params: CheckedJSONDecodable {
        add(method, checksParams: true, answerInline: { _ in nil }) { schema in
            { element throws(RPCError) in Self.bind(M.self, try Self.checkedParams(M.self, element, schema), to: handler) }
        }
    }

    /// The prepared call of an async handler.
    private static func bind<M: RPCMethod>(
        _ method: M.Type, _ params: M.Params, to handler: @escaping @Sendable (M.Params, RequestContext) async throws -> M.Result
    ) -> PreparedCall {
        PreparedCall(
            run: { context in
                let result = try await handler(params, context)
                var writer = JSONWriter(capacity: 128)
                result.encode(to: &writer)
                return writer.bytes
            },
            runInline: nil, canonicalParams: { Self.canonical(params) })
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
        addInline(
            method, checksParams: false,
            answerInline: { _ in
                { element, context, writer in
                    try handler(try Self.decodeParams(M.self, element), context).encode(to: &writer)
                }
            }, decode: { _ in { element throws(RPCError) in try Self.decodeParams(M.self, element) } }, handler: handler)
    }

    /// ``registerInline(_:handler:)`` for params whose decoder checks their schema as it reads:
    /// the params are read and checked in one pass over their bytes.
    @inlinable
    public mutating func registerInline<M: RPCMethod>(
        _ method: M.Type, handler: @escaping @Sendable (M.Params, RequestContext) throws -> M.Result
    ) where M.Params: CheckedJSONDecodable {
        addInline(
            method, checksParams: true,
            answerInline: { schema in
                { element, context, writer in
                    let params: M.Params
                    if let checked = M.Params.checking(element) {
                        params = checked
                    } else {
                        do throws(RPCError) { params = try Self.refusedParams(M.self, element, schema) } catch {
                            throw EarlyAnswer(error)
                        }
                    }
                    try handler(params, context).encode(to: &writer)
                }
            }, decode: { schema in { element throws(RPCError) in try Self.checkedParams(M.self, element, schema) } },
            handler: handler)
    }

    /// ``registerInline(_:handler:)``'s registration, with the closures made for the method's
    /// params schema (`answerInline` and `decode` receive it).
    @usableFromInline
    mutating func addInline<M: RPCMethod>(
        _ method: M.Type, checksParams: Bool,
        answerInline: @escaping (ParamsSchema) -> InlineAnswer,
        decode: @escaping (ParamsSchema) -> @Sendable (JSONElement) throws(RPCError) -> M.Params,
        handler: @escaping @Sendable (M.Params, RequestContext) throws -> M.Result
    ) {
        add(method, checksParams: checksParams, answerInline: answerInline) { schema in
            let decodeParams = decode(schema)
            return { element throws(RPCError) in
                let params = try decodeParams(element)
                return PreparedCall(
                    run: { context in
                        var writer = JSONWriter(capacity: 128)
                        try handler(params, context).encode(to: &writer)
                        return writer.bytes
                    },
                    runInline: { context, writer in try handler(params, context).encode(to: &writer) },
                    canonicalParams: { Self.canonical(params) })
            }
        }
    }

    /// Declares a notification that no method lists (so it still appears in `rpc.discover`).
    public mutating func declare<N: RPCNotification>(notification: N.Type) {
        extraNotifications.append(NotificationDescriptor(notification))
    }

    private mutating func add<M: RPCMethod>(
        _ method: M.Type, checksParams: Bool, answerInline: (ParamsSchema) -> InlineAnswer?,
        prepare: (ParamsSchema) -> @Sendable (JSONElement) throws(RPCError) -> PreparedCall
    ) {
        let descriptor = MethodDescriptor(method)
        let schema = ParamsSchema(descriptor)
        registrations.append(
            Registration(
                descriptor: descriptor, paramsSchema: schema, checksParams: checksParams,
                prepare: prepare(schema), answerInline: answerInline(schema)))
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

    /// Reads and checks params in one pass; when the checking decoder refuses them, the answer
    /// the validator and the codec give (``refusedParams(_:_:_:)``).
    @inlinable
    static func checkedParams<M: RPCMethod>(_ method: M.Type, _ element: JSONElement, _ schema: ParamsSchema)
        throws(RPCError) -> M.Params where M.Params: CheckedJSONDecodable
    {
        if let params = M.Params.checking(element) { return params }
        return try refusedParams(M.self, element, schema)
    }

    /// What params the checking decoder refused get: the validator's violations when the schema
    /// refuses them, else the codec's error, else (the decoder refuses more than the two, never
    /// less) the params as the codec reads them. Exactly the answer of validating, then decoding.
    @usableFromInline @inline(never)
    static func refusedParams<M: RPCMethod>(_ method: M.Type, _ element: JSONElement, _ schema: ParamsSchema)
        throws(RPCError) -> M.Params
    {
        let violations = try schema.violations(element)
        guard violations.isEmpty else { throw RPCError.invalidParams(violations) }
        return try decodeParams(M.self, element)
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
            if let extra = bare[descriptor.name] {
                descriptor = MethodDescriptor(descriptor, aliases: descriptor.aliases + extra)
            }
            for name in [descriptor.name] + descriptor.aliases {
                if let owner = names[name] {
                    throw RouterBuildError(message: "the name \(name) of \(descriptor.name) is already used by \(owner)")
                }
                names[name] = descriptor.name
            }
            var resultValidator: CompiledSchema?
            if validateResults {
                do {
                    resultValidator = try CompiledSchema(
                        Router.documentSchema(
                            descriptor.resultSchema,
                            definitions: descriptor.definitions))
                } catch {
                    throw RouterBuildError(message: "the result schema of \(descriptor.name) does not compile: \(error)")
                }
            }
            let entry = MethodEntry(
                descriptor: descriptor, paramsSchema: registration.paramsSchema, resultValidator: resultValidator,
                checksParams: registration.checksParams, prepare: registration.prepare, answerInline: registration.answerInline)
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
        return Router(
            entries: entries, table: MethodTable(table.map { ($0.0, Unmanaged.passUnretained($0.1)) }),
            notifications: notifications.values.sorted { $0.name < $1.name },
            notificationValidators: notificationValidators)
    }
}

/// Why the router could not be built (a start-up error).
public struct RouterBuildError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    public var description: String { message }

    /// The error `message` says (the MCP face refuses a router it cannot describe with it).
    package init(message: String) {
        self.message = message
    }
}
