import Logging
import PayRPCJSON
import PayRPCSchema

/// The frozen set of methods a server serves: name or alias → method, plus what `rpc.discover`
/// publishes. Built once by ``RouterBuilder``; read-only afterwards, shared by every connection.
public final class Router: Sendable {
    package let entries: [MethodEntry]
    /// Every name (canonical and alias) to its entry, unretained (``entries`` holds them for as
    /// long as the router lives): the engine's lookup of every request costs no retain and release.
    let table: MethodTable<Unmanaged<MethodEntry>>
    /// The notifications the server may send, sorted by name.
    public let notifications: [NotificationDescriptor]
    let notificationValidators: [String: CompiledSchema]
    /// The notifications by name.
    private let notificationsByName: [String: NotificationDescriptor]

    init(
        entries: [MethodEntry], table: MethodTable<Unmanaged<MethodEntry>>, notifications: [NotificationDescriptor],
        notificationValidators: [String: CompiledSchema]
    ) {
        self.entries = entries
        self.table = table
        self.notifications = notifications
        self.notificationValidators = notificationValidators
        self.notificationsByName = Dictionary(notifications.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The methods, sorted by canonical name.
    public var methods: [MethodDescriptor] {
        entries.map(\.descriptor).sorted { $0.name < $1.name }
    }

    /// How many methods there are: ``methods``' count without building and sorting it (the
    /// sort's first run looked `Int: Comparable` up by scanning every protocol conformance
    /// record of the binary, at every start).
    public var methodCount: Int { entries.count }

    /// The method named `name` (canonical or alias).
    public func method(named name: String) -> MethodDescriptor? {
        entry(named: name)?.descriptor
    }

    /// The notification named `name` (as it is sent), described; nil when the server sends none
    /// of that name.
    public func notification(named name: String) -> NotificationDescriptor? {
        notificationsByName[name]
    }

    /// The secrets of the payload of the notification named `name`, for what records it: its
    /// declared mask, or the name rule (``SensitiveMask/byName``) for a notification the router
    /// does not describe, whose payload no schema declares.
    public func notificationMask(named name: String) -> SensitiveMask {
        notificationsByName[name]?.paramsMask ?? .byName
    }

    /// The method named `name` (canonical or alias), held.
    func entry(named name: String) -> MethodEntry? {
        table.lookup(name)?.takeUnretainedValue()
    }

    /// The method named by the bytes `name` (canonical or alias), unretained: valid while the
    /// router lives.
    func entry(named name: UnsafeRawBufferPointer) -> Unmanaged<MethodEntry>? {
        table.lookup(name)
    }

    /// Every model definition of every method and notification.
    public var allDefinitions: SchemaDefinitions {
        var all = SchemaDefinitions()
        for entry in entries { all.merge(entry.descriptor.definitions) }
        for notification in notifications { all.merge(notification.definitions) }
        return all
    }

    /// Every violation of a method's params schema by `params` (named or positional; a `_meta`
    /// member is set aside as the engine does); nil when no method has that name.
    public func paramsViolations(method name: String, params: JSONElement?) -> [SchemaViolation]? {
        guard let entry = entry(named: name) else { return nil }
        do {
            let normalized = try NormalizedParams(params, method: entry.descriptor)
            return try entry.paramsSchema.violations(normalized.element)
        } catch {
            return [SchemaViolation(pointer: "", keyword: "params", message: error.message)]
        }
    }

    /// Every violation of a method's result schema; nil when no method has that name or the
    /// router was built without result validation.
    public func resultViolations(method name: String, result: JSONElement) -> [SchemaViolation]? {
        guard let validator = entry(named: name)?.resultValidator else { return nil }
        return validator.validate(result)
    }

    /// Every violation of a notification's payload schema; nil when the server sends no such
    /// notification or the router was built without result validation.
    public func notificationViolations(name: String, params: JSONElement) -> [SchemaViolation]? {
        notificationValidators[name]?.validate(params)
    }

    /// Checks a notification payload against its schema; nil when valid or not validated.
    func checkNotification(_ name: String, payload: [UInt8]) -> [SchemaViolation]? {
        guard notificationValidators[name] != nil else { return nil }
        guard let tape = try? JSONTape(copying: payload) else {
            return [SchemaViolation(pointer: "", keyword: "json", message: "payload is not JSON")]
        }
        let violations = tape.withRoot { notificationViolations(name: name, params: $0) } ?? []
        return violations.isEmpty ? nil : violations
    }

    /// The check a connection's notifications go through: nil when the payload is valid or not
    /// validated; else the error (and the violations are logged on `logger`).
    func notificationCheck(logger: Logger) -> @Sendable (String, [UInt8]) -> RPCError? {
        { [self] name, payload in
            guard let violations = checkNotification(name, payload: payload) else { return nil }
            logger.error(
                "notification breaks its schema",
                metadata: [
                    "rpc.method": .string(name), "violations": .string(violations.map(\.description).joined(separator: "; ")),
                ])
            return RPCError(.invalidResult, "Notification breaks its schema")
        }
    }

    /// A schema document: `schema` with `definitions` attached, so its `$ref`s resolve.
    package static func documentSchema(_ schema: JSONValue, definitions: SchemaDefinitions) -> JSONValue {
        let definitionMembers = definitions.schemas.keys.sorted().map {
            JSONValue.Member($0, definitions.schemas[$0]!)
        }
        return .object([
            .init("allOf", .array([schema])),
            .init("definitions", .object(definitionMembers)),
        ])
    }
}
