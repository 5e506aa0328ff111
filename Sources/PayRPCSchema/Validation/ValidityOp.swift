/// One instruction of a ``ValidityProgram``: a keyword check as ``CompiledSchema/isValid(_:)``
/// runs it. (`type`, `properties`, `additionalProperties` and `required` are not ops: they are
/// part of the node, ``ValidityProgram/Node``.)
///
/// Every payload is a plain number (node ids, indices into the program's side tables, counts),
/// so the enum is trivial: reading an op from the program and switching over it copies no
/// reference (a ``SchemaCheck`` visit retains and releases its arrays). Node ids name entries of
/// ``ValidityProgram/nodes``; `-1` means "absent" where a node is optional.
enum ValidityOp: Sendable {
    /// `enum` or `const`: one of the values of ``ValidityProgram/valueSets``.
    case enumeration(Int32)
    /// `allOf`: every node of the list passes.
    case allOf(ValidityProgram.Span)
    /// `anyOf`: a node of the list passes.
    case anyOf(ValidityProgram.Span)
    /// `oneOf`: exactly one node of the list passes.
    case oneOf(ValidityProgram.Span)
    /// `not`.
    case not(Int32)
    /// `if`/`then`/`else` (`-1` for an absent `then` or `else`).
    case conditional(if: Int32, then: Int32, else: Int32)
    /// `minLength`, in Unicode code points.
    case minLength(Int)
    /// `maxLength`, in Unicode code points.
    case maxLength(Int)
    /// `pattern`: an index into ``ValidityProgram/regexes``.
    case pattern(Int32)
    /// `format`.
    case format(StringFormat)
    /// `items` with one schema for every item.
    case items(Int32)
    /// `items` as a list, with `additionalItems` (`-1` when absent).
    case tupleItems(ValidityProgram.Span, additional: Int32)
    /// `contains`.
    case contains(Int32)
    /// `minItems`.
    case minItems(Int)
    /// `maxItems`.
    case maxItems(Int)
    /// `minProperties`.
    case minProperties(Int)
    /// `maxProperties`.
    case maxProperties(Int)
    /// `propertyNames`.
    case propertyNames(Int32)
    /// A keyword left to the collecting walker's code (`minimum` and the other bounds,
    /// `multipleOf`, `uniqueItems`, `dependencies`, members with `patternProperties`): an index
    /// into ``ValidityProgram/legacyChecks``.
    case legacy(Int32)
}
