import PayRPCJSON

/// The index of a compiled schema node in its ``CompiledSchema``'s node table.
///
/// Subschemas and `$ref` targets are table indices rather than object references, which is
/// how recursive schemas (`{"items": {"$ref": "#"}}`) compile without looping and without
/// reference cycles.
typealias NodeID = Int

/// One compiled (sub)schema: what is left of its JSON after compilation.
enum SchemaNode: Sendable {
    /// `true` or `false`, or an object without any assertion (`{}` is `true`).
    case always(Bool)
    /// `$ref`: validate against another node (draft-07 ignores the `$ref`'s siblings).
    case reference(NodeID)
    /// The keyword checks of a schema object, in a fixed order.
    case checks([SchemaCheck])
}
