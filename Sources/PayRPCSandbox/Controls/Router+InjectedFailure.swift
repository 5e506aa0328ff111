import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// What `sandbox.failNext` asks for, before it is checked against the method's declaration.
public struct FailureRequest: Sendable {
    /// The method, by canonical name or alias.
    public var method: String
    /// The error by name: its data's `type` (`general`, `requestExpired`) or its message.
    public var errorName: String?
    /// The error by code.
    public var code: Int?
    /// The message to send instead of the declared one.
    public var message: String?
    /// Members of `data` that replace the declared sample's (a title, a message of the caller's own).
    public var data: JSONValue?

    public init(method: String, errorName: String? = nil, code: Int? = nil, message: String? = nil, data: JSONValue? = nil) {
        self.method = method
        self.errorName = errorName
        self.code = code
        self.message = message
        self.data = data
    }
}

extension Router {
    /// The error a call of `request.method` fails with when armed by `sandbox.failNext`: one of
    /// the errors the method declares, with the caller's message and `data` members over the
    /// declaration's sample, checked against the error's `data` schema.
    ///
    /// Only declared errors can be injected, so a client never meets an error its method's
    /// OpenRPC `errors` does not list.
    /// - Returns: the method's canonical name and the error.
    /// - Throws: ``RPCError`` (invalid params) naming the unknown method, the errors it declares, or
    ///   every violation of the data schema with its pointer under `/data`.
    public func injectedError(for request: FailureRequest) throws(RPCError) -> (method: String, error: RPCError) {
        guard let descriptor = method(named: request.method) else {
            throw Self.failNextProblem("/method", "no method is named \(request.method)")
        }
        guard request.errorName != nil || request.code != nil else {
            throw Self.failNextProblem("", "name the error with `error` (its name) or `code`")
        }
        let declared = descriptor.errors
        guard !declared.isEmpty else {
            throw Self.failNextProblem("/method", "\(descriptor.name) declares no domain error to inject")
        }
        let found = declared.first { error in
            if let code = request.code, error.code != code { return false }
            if let name = request.errorName {
                return error.message == name || error.sampleData?["type"]?.stringValue == name
            }
            return true
        }
        guard let error = found else {
            let names = declared.map { error in
                "\(error.code) \(error.sampleData?["type"]?.stringValue ?? error.message)"
            }.joined(separator: ", ")
            throw Self.failNextProblem(
                request.errorName == nil ? "/code" : "/error",
                "\(descriptor.name) declares no such error; it declares: \(names)")
        }
        var data = error.sampleData
        if let given = request.data {
            guard case .object(let members) = given else { throw Self.failNextProblem("/data", "data must be an object") }
            data = Self.merging(members, into: data)
        }
        if let schema = error.dataSchema {
            guard let data else { throw Self.failNextProblem("/data", "this error carries data: give its members") }
            let compiled: CompiledSchema
            do {
                compiled = try CompiledSchema(Router.documentSchema(schema, definitions: descriptor.definitions))
            } catch {
                throw RPCError.internalError
            }
            let violations = compiled.validate(data)
            if !violations.isEmpty {
                throw RPCError.invalidParams(
                    violations.map {
                        SchemaViolation(pointer: "/data" + $0.pointer, keyword: $0.keyword, message: $0.message)
                    })
            }
        }
        return (descriptor.name, RPCError(RPCError.Code(error.code), request.message ?? error.message, data: data))
    }

    private static func merging(_ members: [JSONValue.Member], into sample: JSONValue?) -> JSONValue {
        guard case .object(var merged)? = sample else { return .object(members) }
        for member in members {
            if let index = merged.firstIndex(where: { $0.name == member.name }) {
                merged[index].value = member.value
            } else {
                merged.append(member)
            }
        }
        return .object(merged)
    }

    private static func failNextProblem(_ pointer: String, _ message: String) -> RPCError {
        RPCError.invalidParams([SchemaViolation(pointer: pointer, keyword: "failNext", message: message)])
    }
}
