import PayRPCJSON

/// A compiled schema's node table rewritten for one question, "is this value valid?": what
/// ``CompiledSchema/isValid(_:)`` walks.
///
/// The collecting walker (``CompiledSchema/check(_:_:_:)``) reads ``SchemaNode``s and
/// ``SchemaCheck``s, whose payloads are arrays and structs of arrays: every visit of a node or a
/// keyword retains and releases them, and an object's members are matched against `properties`
/// by a scan of `String`s per member and looked up again for `required`. This program holds the
/// same schema as trivial values instead (``ValidityOp``s and the small structs below, with
/// indices into side tables), so walking it copies no reference:
/// - a node (``Node``) is a `type`, a member group and a range of ops; `$ref` nodes, and
///   `allOf`s of a single schema with no other assertion (how generated schemas wrap a `$ref`
///   to add a `description`), are their target's node, so following them costs nothing;
/// - an object schema's `properties`, `additionalProperties` and `required` (without
///   `patternProperties`) are one ``MemberGroup``, checked in a single pass over the members:
///   each member name is matched by length and bytes against the UTF-8 names, and the
///   `required` names found are collected in a bit mask.
///
/// Rare keywords (bounds, `multipleOf`, `uniqueItems`, `dependencies`, `patternProperties`,
/// more than 64 `required` names) stay ``SchemaCheck``s, run by the collecting walker's code.
/// The answers are those of the collecting walker, keyword for keyword (a differential test
/// runs both over the JSON-Schema-Test-Suite).
struct ValidityProgram: Sendable {
    /// A range of a side table, as a start and a count.
    struct Span: Sendable {
        /// The first position.
        var start: Int32
        /// How many positions.
        var count: Int32

        /// The positions of the span in its table.
        var indices: Range<Int> { Int(start)..<(Int(start) + Int(count)) }
    }

    /// One node: the kinds it allows, its member group and its other checks.
    ///
    /// `type` and the member group are part of the node rather than ops because nearly every
    /// params schema is a `type` with either members or a few ops (most member and item schemas
    /// are a `type` and nothing else): they are checked where a node is entered, without a call
    /// or a loop over ops.
    struct Node: Sendable {
        /// The node's `type` (every kind when it has none; no kind for a `false` schema).
        var types: JSONTypeSet
        /// The node's member group in ``ValidityProgram/memberGroups``; `-1` when it has none.
        var members: Int32
        /// The node's other checks in ``ValidityProgram/ops``.
        var ops: Span
    }

    /// One `properties` or `required` name of a ``MemberGroup``.
    struct MemberName: Sendable {
        /// Where the name's UTF-8 is in ``ValidityProgram/bytes``.
        var bytes: Span
        /// The name's ``ValidityProgram/key(_:)``.
        var key: (head: UInt64, tail: UInt64)
        /// The node the member's value must pass; `-1` for a name that is only `required`.
        var node: Int32
        /// The name's bit in ``MemberGroup/required``; 0 when it is not required.
        var requiredBit: UInt64
        /// The node the whole object must pass when this member is present (`dependencies` with
        /// a schema); `-1` for none.
        var dependency: Int32 = -1
    }

    /// The `properties`, `additionalProperties` and `required` of one object schema.
    struct MemberGroup: Sendable {
        /// The names, in ``ValidityProgram/memberNames``: the `properties` first, in schema order
        /// (a repeated name only once, the first applies), then the `required` names that are not
        /// properties, then the names of schema `dependencies` that are neither. No two have the
        /// same UTF-8.
        var names: Span
        /// The node the other members must pass (`additionalProperties`); `-1` when absent.
        var additional: Int32
        /// The bits of every required name.
        var required: UInt64
        /// Whether the group only asks for names to be present (no `properties`, no
        /// `additionalProperties`), so the walk may stop once every required name was seen.
        var presenceOnly: Bool
        /// `anyOf` of single `required` names (one of several spellings must be given): each
        /// mask needs one of its bits found.
        var requiredAny: [UInt64] = []
    }

    /// A string of an `enum` or `const`.
    struct ConstantString: Sendable {
        /// Where the string's content, as written in the schema, is in ``ValidityProgram/bytes``.
        var bytes: Span
        /// Whether it is written with escapes (so its bytes are not its text).
        var escaped: Bool
    }

    /// The values of one `enum` or `const`.
    struct ValueSet: Sendable {
        /// The strings, in ``ValidityProgram/enumStrings``.
        var strings: Span
        /// The other values, in ``ValidityProgram/otherValues``.
        var others: Span
    }

    /// The first and the last bytes of a name, as two words that overlap for names shorter than
    /// 16 bytes (one word each of a 4- to 7-byte name's first and last four, the whole of a
    /// shorter name in `head`): two names of the same length are equal when their keys are,
    /// and, beyond 16 bytes, their middle bytes too. Comparing keys costs less than a call to
    /// `memcmp` for the short names members have.
    @inline(__always)
    static func key(_ bytes: UnsafeRawBufferPointer) -> (head: UInt64, tail: UInt64) {
        let count = bytes.count
        if count >= 8 {
            return (bytes.loadUnaligned(as: UInt64.self), bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        }
        if count >= 4 {
            return (
                UInt64(bytes.loadUnaligned(as: UInt32.self)),
                UInt64(bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            )
        }
        var head: UInt64 = 0
        for index in 0..<count { head |= UInt64(bytes[index]) << UInt64(8 * index) }
        return (head, 0)
    }

    /// The node the whole value must pass.
    static let root: Int32 = 0

    /// Every kind of value: the ``Node/types`` of a node without `type`.
    static let anyType = JSONTypeSet(rawValue: 0x7F)

    /// For each node id of the table this was made from, the node (an alias has its target's).
    var nodes: [Node] = []
    /// The ops of every node, back to back.
    var ops: [ValidityOp] = []
    /// The node ids of `allOf`, `anyOf`, `oneOf` and `items` lists, back to back.
    var lists: [Int32] = []
    /// The UTF-8 of member names and `enum` strings, back to back.
    var bytes: [UInt8] = []
    /// The member groups of the nodes.
    var memberGroups: [MemberGroup] = []
    /// The names of every member group.
    var memberNames: [MemberName] = []
    /// The names of ``memberNames`` as strings (same positions), for member names with escapes.
    var memberNameTexts: [String] = []
    /// The value sets of ``ValidityOp/enumeration(_:)``.
    var valueSets: [ValueSet] = []
    /// The strings of every value set.
    var enumStrings: [ConstantString] = []
    /// The strings of ``enumStrings`` decoded (same positions), for comparisons with escapes.
    var enumTexts: [String] = []
    /// The values of every value set that are not strings.
    var otherValues: [JSONElement] = []
    /// The regular expressions of ``ValidityOp/pattern(_:)``.
    var regexes: [ECMARegex] = []
    /// The keywords of ``ValidityOp/legacy(_:)``.
    var legacyChecks: [SchemaCheck] = []
}
