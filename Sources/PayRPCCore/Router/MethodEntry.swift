import PayRPCJSON
import PayRPCSchema

/// A registered method with its generic types erased, once, at registration.
///
/// The closures decode params straight into `M.Params` through the generated codec and encode
/// the result straight into the response; nothing goes through an intermediate JSON value.
final class MethodEntry: Sendable {
    let descriptor: MethodDescriptor
    /// The params schema, compiled at start-up.
    let paramsValidator: CompiledSchema
    /// The result schema, compiled when results are validated.
    let resultValidator: CompiledSchema?
    /// Whether absent params (`{}`) satisfy the params schema: then they are not validated again.
    let acceptsAbsentParams: Bool
    /// Reads the params (already validated) into `M.Params`.
    let decode: @Sendable (JSONElement) throws(RPCError) -> any Sendable
    /// Writes decoded params in canonical form (the digest of idempotent calls).
    let encodeParams: @Sendable (any Sendable) -> [UInt8]
    /// Runs the handler.
    let body: Body

    enum Body: Sendable {
        /// Answers inline on the loop thread, writing the result into the response: from decoded
        /// params, or straight from the validated params element (decoded into `M.Params` and
        /// passed to the handler with no existential box and no cast: the usual path).
        case inline(@Sendable (any Sendable, RequestContext, inout JSONWriter) throws -> Void,
                    fromElement: @Sendable (JSONElement, RequestContext, inout JSONWriter) throws -> Void)
        /// Runs as a task; returns the encoded result.
        case task(@Sendable (any Sendable, RequestContext) async throws -> [UInt8])
    }

    init(descriptor: MethodDescriptor, paramsValidator: CompiledSchema, resultValidator: CompiledSchema?,
         decode: @escaping @Sendable (JSONElement) throws(RPCError) -> any Sendable,
         encodeParams: @escaping @Sendable (any Sendable) -> [UInt8], body: Body) {
        self.descriptor = descriptor
        self.paramsValidator = paramsValidator
        self.acceptsAbsentParams = paramsValidator.isValid(NormalizedParams.emptyObject.root)
        self.resultValidator = resultValidator
        self.decode = decode
        self.encodeParams = encodeParams
        self.body = body
    }
}
