import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The secrets of a journal entry, masked as the schemas declare them (`x-sensitive`): a call's
/// params and result by its method's schemas, a notification's params by its schema.
enum CallMasking {
    /// A call's params (by name) with the secrets masked: by the method's schema, then by name
    /// (params that break their schema may carry members the schema does not reach).
    static func params(_ value: JSONValue, of method: MethodDescriptor?) -> JSONValue {
        guard let method else { return SensitiveMask.byName.masked(value) }
        return SensitiveMask.byName.masked(method.paramsMask.masked(value))
    }

    /// A call's result with the secrets masked.
    static func result(_ value: JSONValue, of method: MethodDescriptor?) -> JSONValue {
        guard let method else { return SensitiveMask.byName.masked(value) }
        return method.resultMask.masked(value)
    }

    /// An error's `data` (declared per method; read by name).
    static func errorData(_ value: JSONValue) -> JSONValue {
        SensitiveMask.byName.masked(value)
    }

    /// A notification's params with the secrets masked.
    static func notification(_ value: JSONValue, named name: String, router: Router?) -> JSONValue {
        (router?.notificationMask(named: name) ?? .byName).masked(value)
    }
}
