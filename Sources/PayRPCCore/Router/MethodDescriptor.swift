import PayRPCJSON
import PayRPCSchema
import PayRPCSync

/// Everything the server publishes about one method, derived from its ``RPCMethod`` declaration.
///
/// A class: the engine reads a few of its flags on every call, and copying the struct it was
/// cost some twenty retains of its strings, arrays and schemas each time.
public final class MethodDescriptor: Sendable {
    /// The declaration everything here is derived from: for checks that must reach every
    /// method's params and result types (the codec fuzz target decodes and encodes them).
    public let declaration: any RPCMethod.Type
    /// The canonical name.
    public let name: String
    /// Other names that reach the same handler.
    public let aliases: [String]
    /// One line from the declaration's doc comment.
    public let summary: String
    /// The rest of the doc comment.
    public let documentation: String
    /// The params schema (usually a `$ref` into ``definitions``).
    public let paramsSchema: JSONValue
    /// The params' member names in declaration order (params by position map onto these).
    public let fieldOrder: [String]
    /// The result schema.
    public let resultSchema: JSONValue
    /// The domain errors the method can return (described the first time they are read: serving
    /// calls never reads them, `rpc.discover`, the MCP tool list and an injected failure do; a
    /// start that described them encoded every error kind's sample `data`).
    public var errors: [ErrorDescriptor] { lazyErrors.value }
    private let lazyErrors: LazyValue<[ErrorDescriptor]>
    /// How the method behaves, as its declaration says (``RPCMethod/traits``).
    public let traits: MethodTraits
    /// Names of the notifications the method may cause.
    public let notifications: [String]
    /// Every model definition the params, result and error data refer to (collected the first
    /// time it is read: serving calls never reads it, `rpc.discover` and the validators do).
    public var definitions: SchemaDefinitions { lazyDefinitions.value }
    private let lazyDefinitions: LazyValue<SchemaDefinitions>
    /// The notifications the method may cause, described.
    let notificationDescriptors: [NotificationDescriptor]
    /// The secrets of the params (``SensitiveMask``), for what records a call: found in the
    /// params schema the first time they are read, once, whichever thread reads first.
    public var paramsMask: SensitiveMask { lazyMasks.value.params }
    /// The secrets of the result, found in the result schema the first time they are read.
    public var resultMask: SensitiveMask { lazyMasks.value.result }
    /// Both masks, made together: one lazy value per method, not two, at every start.
    private let lazyMasks: LazyValue<CallMasks>

    /// The masks of a method's params and result.
    struct CallMasks: Sendable {
        let params: SensitiveMask
        let result: SensitiveMask
    }

    /// One error as published.
    public struct ErrorDescriptor: Sendable {
        /// The stable code.
        public let code: Int
        /// The error's message.
        public let message: String
        /// The schema of `data`, when it has one.
        public let dataSchema: JSONValue?
        /// The `data` an injected error carries by default (``RPCErrorDescriptor/sampleData``).
        public let sampleData: JSONValue?
    }

    init<M: RPCMethod>(_ method: M.Type) {
        let notificationDescriptors = M.notifications.map { $0.descriptor }
        self.declaration = method
        self.name = M.name
        self.aliases = M.aliases
        self.summary = M.summary
        self.documentation = M.documentation
        self.paramsSchema = M.Params.schemaReference
        self.fieldOrder = M.Params.fieldOrder
        self.resultSchema = M.Result.schemaReference
        self.lazyErrors = LazyValue {
            M.errors.map { error in
                ErrorDescriptor(
                    code: error.code.rawValue, message: error.message,
                    dataSchema: error.data?.schemaReference, sampleData: error.sampleData)
            }
        }
        self.traits = M.traits
        self.notifications = M.notifications.map { $0.name }
        self.lazyDefinitions = LazyValue {
            var definitions = SchemaDefinitions()
            M.Params.collectSchemaDefinitions(into: &definitions)
            M.Result.collectSchemaDefinitions(into: &definitions)
            for error in M.errors { error.data?.collectSchemaDefinitions(into: &definitions) }
            return definitions
        }
        self.notificationDescriptors = notificationDescriptors
        self.lazyMasks = LazyValue {
            CallMasks(params: SensitiveMask(describing: M.Params.self), result: SensitiveMask(describing: M.Result.self))
        }
    }

    /// `other` with `aliases` in place of its own (the router adds the derived bare names).
    init(_ other: MethodDescriptor, aliases: [String]) {
        self.declaration = other.declaration
        self.name = other.name
        self.aliases = aliases
        self.summary = other.summary
        self.documentation = other.documentation
        self.paramsSchema = other.paramsSchema
        self.fieldOrder = other.fieldOrder
        self.resultSchema = other.resultSchema
        self.lazyErrors = other.lazyErrors
        self.traits = other.traits
        self.notifications = other.notifications
        self.lazyDefinitions = other.lazyDefinitions
        self.notificationDescriptors = other.notificationDescriptors
        self.lazyMasks = other.lazyMasks
    }
}

extension MethodDescriptor {
    /// Whether the method changes state (and so honours idempotency keys).
    public var mutates: Bool { traits.contains(.mutates) }
    /// Whether the method is refused outside sandbox mode.
    public var sandboxOnly: Bool { traits.contains(.sandboxOnly) }
    /// Whether the method throws state away (``MethodTraits/destructive``).
    public var destructive: Bool { traits.contains(.destructive) }
    /// Whether the method may be called before authenticating.
    public var allowedBeforeAuthentication: Bool { traits.contains(.allowedBeforeAuthentication) }
    /// Whether the method changes the profile's sandbox controls (``MethodTraits/changesSandboxControls``).
    public var changesSandboxControls: Bool { traits.contains(.changesSandboxControls) }
    /// Whether the method answers another call that waits for it (``MethodTraits/answersWaitingCall``).
    public var answersWaitingCall: Bool { traits.contains(.answersWaitingCall) }
    /// Whether the method's calls on one connection run in arrival order.
    public var ordered: Bool { traits.contains(.ordered) }
    /// Whether the call journal records the method's calls (``MethodTraits/unjournalled``).
    public var journalled: Bool { !traits.contains(.unjournalled) }
}

/// Everything the server publishes about one notification it may send.
public struct NotificationDescriptor: Sendable {
    /// The declaration everything here is derived from (see ``MethodDescriptor/declaration``).
    public let declaration: any RPCNotification.Type
    /// The method name on the wire.
    public let name: String
    /// One line from the declaration's doc comment.
    public let summary: String
    /// The rest of the doc comment.
    public let documentation: String
    /// The payload schema.
    public let paramsSchema: JSONValue
    /// The payload's member names in declaration order.
    public let fieldOrder: [String]
    /// The model definitions the payload refers to (collected the first time it is read).
    public var definitions: SchemaDefinitions { lazyDefinitions.value }
    private let lazyDefinitions: LazyValue<SchemaDefinitions>
    /// Other spellings a client may know the notification by (listed, never sent).
    public let aliases: [String]
    /// The secrets of the payload (``SensitiveMask``), found in its schema the first time they
    /// are read.
    public var paramsMask: SensitiveMask { lazyParamsMask.value }
    private let lazyParamsMask: LazyValue<SensitiveMask>

    init<N: RPCNotification>(_ notification: N.Type) {
        self.declaration = notification
        self.name = N.name
        self.summary = N.summary
        self.documentation = N.documentation
        self.paramsSchema = N.Payload.schemaReference
        self.fieldOrder = N.Payload.fieldOrder
        self.lazyDefinitions = LazyValue {
            var definitions = SchemaDefinitions()
            N.Payload.collectSchemaDefinitions(into: &definitions)
            return definitions
        }
        self.aliases = N.aliases
        self.lazyParamsMask = LazyValue { SensitiveMask(describing: N.Payload.self) }
    }
}

extension RPCNotification {
    static var descriptor: NotificationDescriptor { NotificationDescriptor(self) }
}
