import PayRPCJSON
import PayRPCSchema
import PayRPCSync

/// A method's params schema, compiled the first time a call needs it.
///
/// Compiling the params schemas of every method took half of a server's start-up (83 methods,
/// most of them never called by a test that spawns a gateway for one journey). A method whose
/// params decoder checks the schema as it reads (``CheckedJSONDecodable``) needs it only to say
/// why params were refused; the others on their first call.
@usableFromInline
package final class ParamsSchema: Sendable {
    /// Nil when the schema does not compile. Not a `Result<Compiled, RPCError>`: instantiating it
    /// at start looked `RPCError: Error` up by scanning every protocol conformance record of the
    /// binary (docs/benchmarks.md).
    private let compiled: LazyValue<Compiled?>

    /// The compiled schema and whether it accepts `{}` (absent params then need no check).
    package struct Compiled: Sendable {
        let schema: CompiledSchema
        let acceptsAbsentParams: Bool
    }

    /// The schema of `descriptor`'s params, with its definitions, compiled on first use.
    package init(_ descriptor: MethodDescriptor) {
        compiled = LazyValue {
            do {
                let schema = try CompiledSchema(
                    Router.documentSchema(descriptor.paramsSchema, definitions: descriptor.definitions))
                return Compiled(schema: schema, acceptsAbsentParams: schema.isValid(NormalizedParams.emptyObject.root))
            } catch {
                // Every generated schema compiles: the generator compiles them, and a test compiles
                // every method's (`everyParamsSchemaCompiles`). One that does not is a build defect.
                return nil
            }
        }
    }

    /// The compiled schema.
    /// - Throws: an internal error when the schema does not compile.
    package func schema() throws(RPCError) -> Compiled {
        guard let compiled = compiled.value else { throw .internalError }
        return compiled
    }

    /// Every violation of the schema by `params` (empty when valid).
    /// - Throws: an internal error when the schema does not compile.
    @usableFromInline
    package func violations(_ params: JSONElement) throws(RPCError) -> [SchemaViolation] {
        try schema().schema.validate(params)
    }
}
