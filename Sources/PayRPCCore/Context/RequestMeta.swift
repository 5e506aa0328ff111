import PayRPCJSON
import PayRPCSchema

/// Cross-cutting metadata of one call, from `params._meta` (the way the Model Context Protocol
/// uses it). The engine removes `_meta` before the method sees its params.
public struct RequestMeta: Sendable, Equatable {
    /// Deadline for this call, in milliseconds from its arrival.
    public var timeoutMs: Int?
    /// Makes a mutating call run at most once per profile and key.
    public var idempotencyKey: String?
    /// W3C trace context, logged with the call.
    public var traceparent: String?

    public init(timeoutMs: Int? = nil, idempotencyKey: String? = nil, traceparent: String? = nil) {
        self.timeoutMs = timeoutMs
        self.idempotencyKey = idempotencyKey
        self.traceparent = traceparent
    }

    /// Reads `_meta`; a member of the wrong type is an error naming it.
    package init(parsing element: JSONElement) throws(RPCError) {
        guard element.kind == .object else {
            throw RPCError.invalidParams([.init(pointer: "/_meta", keyword: "type", message: "_meta must be an object")])
        }
        for (name, value) in element.objectMembers {
            if name.stringEquals("timeoutMs") {
                guard let number = value.int64, number > 0, number <= 86_400_000 else {
                    throw RPCError.invalidParams([
                        .init(
                            pointer: "/_meta/timeoutMs", keyword: "type",
                            message: "timeoutMs must be an integer from 1 to 86400000")
                    ])
                }
                timeoutMs = Int(number)
            } else if name.stringEquals("idempotencyKey") {
                guard let key = value.string, !key.isEmpty, key.utf8.count <= 255 else {
                    throw RPCError.invalidParams([
                        .init(
                            pointer: "/_meta/idempotencyKey", keyword: "type",
                            message: "idempotencyKey must be a string of 1 to 255 bytes")
                    ])
                }
                idempotencyKey = key
            } else if name.stringEquals("traceparent") {
                guard let trace = value.string, trace.utf8.count <= 128 else {
                    throw RPCError.invalidParams([
                        .init(
                            pointer: "/_meta/traceparent", keyword: "type",
                            message: "traceparent must be a string")
                    ])
                }
                traceparent = trace
            }
            // Other members are metadata for other tools; ignored.
        }
    }
}
