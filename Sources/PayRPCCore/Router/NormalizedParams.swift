import PayRPCJSON
import PayRPCSchema

/// A request's params as its method's schema and codec see them: positions mapped onto the
/// params model's member names, `_meta` set aside, absent (or `null`) params as `{}`.
///
/// The common case (named params without `_meta`) uses the request's own bytes; the others are
/// rewritten into a small tape of their own, which this value keeps alive.
package struct NormalizedParams {
    /// The params to validate and decode.
    package let element: JSONElement
    /// `params._meta`, when present.
    package let meta: JSONElement?
    /// Keeps a rewritten copy alive.
    private let storage: JSONTape?

    package static let emptyObject: JSONTape = (try? JSONTape(string: "{}")) ?? JSONTape()

    /// - Throws: invalid params when more positions are given than the model has members.
    ///
    /// Takes the method's descriptor (one reference), not its field order and name: those are
    /// needed only for positional params and errors, and passing them cost two retains per call.
    /// Borrowed: an initializer takes its arguments owned unless told otherwise, which cost the
    /// caller a retain and a release of the descriptor per call (scripts/callgrind.sh).
    ///
    /// `absent` is what absent params read as: ``emptyObject``'s root, which a session keeps at
    /// hand (reading the static here cost every call a `swift_once`).
    package init(
        _ params: JSONElement?, method descriptor: borrowing MethodDescriptor, absent: JSONElement = Self.emptyObject.root
    ) throws(RPCError) {
        guard let params, params.kind != .null else {
            self.init(element: absent, meta: nil, storage: nil)
            return
        }
        switch params.kind {
        case .array:
            let fieldOrder = descriptor.fieldOrder
            guard params.count <= fieldOrder.count else {
                throw RPCError.invalidParams([
                    SchemaViolation(
                        pointer: "", keyword: "maxItems",
                        message: "\(descriptor.name) takes at most \(fieldOrder.count) params by position")
                ])
            }
            var writer = JSONWriter(capacity: params.rawBytes.count + 16 * params.count)
            writer.beginObject()
            for (name, value) in zip(fieldOrder, params.arrayElements) {
                writer.key(name)
                writer.raw(value.rawBytes)
            }
            writer.endObject()
            self.init(rewritten: writer.bytes, meta: nil)
        case .object:
            guard let meta = params.member("_meta") else {
                self.init(element: params, meta: nil, storage: nil)
                return
            }
            var writer = JSONWriter(capacity: params.rawBytes.count)
            writer.beginObject()
            for (name, value) in params.objectMembers where !name.stringEquals("_meta") {
                writer.separate()
                writer.raw(name.rawBytes)
                writer.raw(":")
                writer.raw(value.rawBytes)
            }
            writer.endObject()
            self.init(rewritten: writer.bytes, meta: meta)
        case .null, .bool, .number, .string:
            self.init(element: params, meta: nil, storage: nil)
        }
    }

    private init(element: JSONElement, meta: JSONElement?, storage: JSONTape?) {
        self.element = element
        self.meta = meta
        self.storage = storage
    }

    /// Bytes written from valid JSON pieces are valid JSON, so the parse cannot fail.
    private init(rewritten bytes: [UInt8], meta: JSONElement?) {
        let tape = (try? JSONTape(copying: bytes)) ?? Self.emptyObject
        self.init(element: tape.root, meta: meta, storage: tape)
    }
}
