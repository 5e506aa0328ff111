import PayRPCJSON

/// A text with `{name}` placeholders (`Pay {amount} {currency} to {name}?`), split into literal
/// text and placeholders once, when a service reads its sandbox data, so that filling it in on a
/// hot path is a few copies into one buffer.
///
/// `Slot` names the placeholders whose values change from one fill to the next; a constant (the
/// sandbox's currency) is spelled into the literal text when the template is split. The text is
/// put together as UTF-8 bytes (``UTF8Text``), measured first and then copied into a buffer of
/// that size; ``fill(into:_:)`` reuses the buffer of the text it is given when nothing else
/// shares it (a connection's last answer, ``ConnectionValue/withValue(writing:)``). The text
/// learns on the way whether it needs escaping in JSON: the literal text was looked at once, when
/// the template was split, and an amount is digits, so only the strings a fill appends are looked
/// at. Why this shape is fast: docs/benchmarks.md, "Fast paths of the kit".
public struct TextTemplate<Slot: TemplateSlot>: Sendable, Equatable {
    /// One piece of the template: literal text (a range of ``literals``, maybe empty), then a
    /// placeholder, if any. Trivial values: walking them retains nothing.
    @usableFromInline
    struct Piece: Sendable, Equatable {
        @usableFromInline let literal: Range<Int>
        @usableFromInline let slot: Slot?

        @usableFromInline
        init(literal: Range<Int>, slot: Slot?) {
            self.literal = literal
            self.slot = slot
        }
    }

    @usableFromInline let pieces: [Piece]
    /// The literal text of every piece, one after the other, so that each piece's literal is one
    /// copy from one buffer.
    @usableFromInline let literals: UTF8Text
    /// Whether a filled-in text may end in spaces (a placeholder last, or a literal that ends in
    /// one): only then is the end of each filled-in text looked at for them.
    @usableFromInline let mayEndInSpaces: Bool

    /// Splits `template`; a `{name}` that is a key of `constants` becomes that text. A `{` without
    /// a closing `}` is literal text.
    /// - Throws: ``UnknownTemplatePlaceholder`` naming a `{name}` that is neither a `Slot` nor a
    ///   constant.
    public init(_ template: String, constants: [String: String] = [:]) throws(UnknownTemplatePlaceholder) {
        var pieces: [Piece] = []
        var literals = ""
        var start = 0
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            literals += rest[..<open]
            if let slot = Slot(rawValue: name) {
                let end = literals.utf8.count
                pieces.append(Piece(literal: start..<end, slot: slot))
                start = end
            } else if let constant = constants[name] {
                literals += constant
            } else {
                throw UnknownTemplatePlaceholder(name: name)
            }
            rest = rest[rest.index(after: close)...]
        }
        literals += rest
        if start < literals.utf8.count { pieces.append(Piece(literal: start..<literals.utf8.count, slot: nil)) }
        self.pieces = pieces
        self.literals = UTF8Text(literals)
        self.mayEndInSpaces = pieces.last?.slot != nil || literals.utf8.last == UInt8(ascii: " ")
    }

    /// The template with each placeholder replaced by what `values` appends for it, without
    /// spaces at the end (what a placeholder left empty at the end leaves).
    /// - Parameter values: appends the value of a placeholder; called twice for each (see
    ///   ``TemplateOutput``), so it must append the same both times.
    @inlinable
    public func filled(_ values: (Slot, inout TemplateOutput) -> Void) -> UTF8Text {
        var text = UTF8Text(count: measure(values)) { writer in write(into: &writer, values) }
        if mayEndInSpaces { text.trimTrailingSpaces() }
        return text
    }

    /// ``filled(_:)`` into `text`, reusing its storage when no other text shares it
    /// (``PayRPCJSON/UTF8Text/rewrite(count:_:)``): a text kept for the next one of its kind is
    /// written over without an allocation and a free; one still held elsewhere is never
    /// overwritten.
    @inlinable
    public func fill(into text: inout UTF8Text, _ values: (Slot, inout TemplateOutput) -> Void) {
        text.rewrite(count: measure(values)) { writer in write(into: &writer, values) }
        if mayEndInSpaces { text.trimTrailingSpaces() }
    }

    /// How many bytes the filled-in template has (before trailing spaces are dropped).
    @inlinable @inline(__always)
    func measure(_ values: (Slot, inout TemplateOutput) -> Void) -> Int {
        var output = TemplateOutput(writingTo: nil)
        for piece in pieces {
            if let slot = piece.slot { values(slot, &output) }
        }
        return literals.count + output.measured
    }

    /// Writes the literal text and the values, piece by piece.
    @inlinable @inline(__always)
    func write(into writer: inout UTF8Text.Writer, _ values: (Slot, inout TemplateOutput) -> Void) {
        let literalsAreEscapeFree = literals.isEscapeFree
        withUnsafeMutablePointer(to: &writer) { writer in
            var output = TemplateOutput(writingTo: writer)
            literals.withUnsafeBytes { literals in
                for piece in pieces {
                    let literal = UnsafeRawBufferPointer(rebasing: literals[piece.literal])
                    if literalsAreEscapeFree {
                        writer.pointee.append(escapeFreeUTF8: literal)
                    } else {
                        writer.pointee.append(utf8: literal)
                    }
                    if let slot = piece.slot { values(slot, &output) }
                }
            }
        }
    }
}
