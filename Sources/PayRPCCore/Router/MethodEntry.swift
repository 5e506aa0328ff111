import PayRPCJSON
import PayRPCSchema

/// A registered method with its generic types erased, once, at registration.
///
/// The closures decode params straight into `M.Params` through the generated codec and bind them
/// to the handler (``PreparedCall``), so the engine carries a call around without knowing its
/// types and never casts them back; results are encoded straight into the response. Nothing goes
/// through an intermediate JSON value.
package final class MethodEntry: Sendable {
    package let descriptor: MethodDescriptor
    /// The params schema, compiled when first needed.
    package let paramsSchema: ParamsSchema
    /// The result schema, compiled when results are validated.
    package let resultValidator: CompiledSchema?
    /// Whether the params decoder checks the params schema as it reads (``CheckedJSONDecodable``):
    /// then ``prepare`` and ``answerInline`` validate, and the engine does not walk the params
    /// with the validator first.
    package let checksParams: Bool
    /// Reads the params into `M.Params` (checking them when ``checksParams``, else already
    /// validated) and binds them to the handler.
    package let prepare: @Sendable (JSONElement) throws(RPCError) -> PreparedCall
    /// For a method that answers inline: decodes the params element into `M.Params` (checking it
    /// when ``checksParams``: refused params are thrown as an ``EarlyAnswer``), calls the handler
    /// and writes the result, in one go (no existential box: the usual path).
    package let answerInline: InlineAnswer?

    package init(
        descriptor: MethodDescriptor, paramsSchema: ParamsSchema, resultValidator: CompiledSchema?, checksParams: Bool,
        prepare: @escaping @Sendable (JSONElement) throws(RPCError) -> PreparedCall, answerInline: InlineAnswer?
    ) {
        self.descriptor = descriptor
        self.paramsSchema = paramsSchema
        self.resultValidator = resultValidator
        self.checksParams = checksParams
        self.prepare = prepare
        self.answerInline = answerInline
    }
}

/// An inline method's decode–handle–encode: the params element, the call's context and the writer
/// the result goes into.
@usableFromInline
package typealias InlineAnswer = @Sendable (JSONElement, RequestContext, inout JSONWriter) throws -> Void

/// An answer decided before a handler ran (params that break their schema, found by the checking
/// decoder inside an inline method's closure): answered as it is, not logged as a handler's
/// failure.
@usableFromInline
struct EarlyAnswer: Error {
    @usableFromInline let error: RPCError

    @usableFromInline
    package init(_ error: RPCError) { self.error = error }
}

/// One call's decoded params bound to its method's handler: what the engine runs later (in a
/// task, after an earlier ordered call, or through the idempotency store), typed inside, erased
/// outside.
@usableFromInline
package struct PreparedCall: Sendable {
    /// Runs the handler and returns the result's JSON.
    package let run: @Sendable (RequestContext) async throws -> [UInt8]
    /// For a method that answers inline: runs the handler and writes the result into `writer`.
    package let runInline: (@Sendable (RequestContext, inout JSONWriter) throws -> Void)?
    /// The params in canonical form (what an idempotency key's params are compared by).
    package let canonicalParams: @Sendable () -> [UInt8]

    @usableFromInline
    package init(
        run: @escaping @Sendable (RequestContext) async throws -> [UInt8],
        runInline: (@Sendable (RequestContext, inout JSONWriter) throws -> Void)?,
        canonicalParams: @escaping @Sendable () -> [UInt8]
    ) {
        self.run = run
        self.runInline = runInline
        self.canonicalParams = canonicalParams
    }
}
