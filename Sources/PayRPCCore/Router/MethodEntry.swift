import PayRPCJSON
import PayRPCSchema

/// A registered method with its generic types erased, once, at registration.
///
/// The closures decode params straight into `M.Params` through the generated codec and bind them
/// to the handler (``PreparedCall``), so the engine carries a call around without knowing its
/// types and never casts them back; results are encoded straight into the response. Nothing goes
/// through an intermediate JSON value.
final class MethodEntry: Sendable {
    let descriptor: MethodDescriptor
    /// The params schema, compiled at start-up.
    let paramsValidator: CompiledSchema
    /// The result schema, compiled when results are validated.
    let resultValidator: CompiledSchema?
    /// Whether absent params (`{}`) satisfy the params schema: then they are not validated again.
    let acceptsAbsentParams: Bool
    /// Reads the params (already validated) into `M.Params` and binds them to the handler.
    let prepare: @Sendable (JSONElement) throws(RPCError) -> PreparedCall
    /// For a method that answers inline: decodes the validated params element into `M.Params`,
    /// calls the handler and writes the result, in one go (no existential box: the usual path).
    let answerInline: (@Sendable (JSONElement, RequestContext, inout JSONWriter) throws -> Void)?

    init(descriptor: MethodDescriptor, paramsValidator: CompiledSchema, resultValidator: CompiledSchema?,
         prepare: @escaping @Sendable (JSONElement) throws(RPCError) -> PreparedCall,
         answerInline: (@Sendable (JSONElement, RequestContext, inout JSONWriter) throws -> Void)?) {
        self.descriptor = descriptor
        self.paramsValidator = paramsValidator
        self.acceptsAbsentParams = paramsValidator.isValid(NormalizedParams.emptyObject.root)
        self.resultValidator = resultValidator
        self.prepare = prepare
        self.answerInline = answerInline
    }
}

/// One call's decoded params bound to its method's handler: what the engine runs later (in a
/// task, after an earlier ordered call, or through the idempotency store), typed inside, erased
/// outside.
@usableFromInline
struct PreparedCall: Sendable {
    /// Runs the handler and returns the result's JSON.
    let run: @Sendable (RequestContext) async throws -> [UInt8]
    /// For a method that answers inline: runs the handler and writes the result into `writer`.
    let runInline: (@Sendable (RequestContext, inout JSONWriter) throws -> Void)?
    /// The params in canonical form (what an idempotency key's params are compared by).
    let canonicalParams: @Sendable () -> [UInt8]

    @usableFromInline
    init(run: @escaping @Sendable (RequestContext) async throws -> [UInt8],
         runInline: (@Sendable (RequestContext, inout JSONWriter) throws -> Void)?,
         canonicalParams: @escaping @Sendable () -> [UInt8]) {
        self.run = run
        self.runInline = runInline
        self.canonicalParams = canonicalParams
    }
}
