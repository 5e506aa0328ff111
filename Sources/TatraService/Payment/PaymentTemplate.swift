import PayRPCJSON

/// A confirmation text template of `tatra-sandbox.json` (`Pay {amount} {currency} to {name}?`),
/// split into literal text and placeholders once, when the sandbox data is loaded, so that filling
/// it in on the payment path is a few appends.
struct PaymentTemplate: Sendable, Equatable {
    /// A placeholder a template may use.
    enum Placeholder: String, Sendable, CaseIterable {
        case amount, currency, name, phone, reference, paymentId
    }

    /// A placeholder whose value changes from payment to payment (the currency is the sandbox's,
    /// spelled into the literal text when the template is split).
    enum Value: Sendable, Equatable {
        case amount, name, phone, reference, paymentId
    }

    /// One piece of the template: literal text (a range of ``literals``, maybe empty), then the
    /// value of a placeholder, if any. Trivial values, so that walking them on the payment path
    /// retains nothing.
    struct Piece: Sendable, Equatable {
        let literal: Range<Int>
        let value: Value?
    }

    let pieces: [Piece]
    /// The literal text of every piece, one after the other: copied from one buffer, each piece's
    /// literal is one `memcpy` (a text per literal cost a lookup and a switch more each).
    let literals: UTF8Text

    /// Splits `template`, with `currency` in place of `{currency}`.
    /// - Throws: ``UnknownPlaceholder`` naming a `{...}` that is not a ``Placeholder``.
    init(_ template: String, currency: String) throws(UnknownPlaceholder) {
        var pieces: [Piece] = []
        var literals = ""
        var start = 0
        func piece(_ value: Value?) {
            let end = literals.utf8.count
            pieces.append(Piece(literal: start..<end, value: value))
            start = end
        }
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = rest[rest.index(after: open)..<close]
            guard let placeholder = Placeholder(rawValue: String(name)) else { throw UnknownPlaceholder(name: String(name)) }
            literals += rest[..<open]
            switch placeholder {
            case .amount: piece(.amount)
            case .currency: literals += currency
            case .name: piece(.name)
            case .phone: piece(.phone)
            case .reference: piece(.reference)
            case .paymentId: piece(.paymentId)
            }
            rest = rest[rest.index(after: close)...]
        }
        literals += rest
        if start < literals.utf8.count { piece(nil) }
        self.pieces = pieces
        self.literals = UTF8Text(literals)
    }

    /// The text with every placeholder replaced by its value, without spaces at the end; an absent
    /// reference or payment id leaves its placeholder empty. `amount` is the amount's text as
    /// ASCII bytes (digits, a point, a sign: ``PaymentText/withText(cents:_:)`` writes them on the
    /// stack).
    ///
    /// Put together as UTF-8 bytes (``UTF8Text``), measured first and then copied into one buffer:
    /// appending to a `String` costs a few hundred instructions per piece, most of it for keeping
    /// its grapheme breaks right, and making a `String` of the bytes checks them again. The values
    /// are parameters, borrowed from the caller: gathered into a struct first, each was retained
    /// and the struct destroyed again (about 280 instructions a `tatra.executePayment`).
    func fill(
        amount: UnsafeRawBufferPointer, name: String, phone: String, reference: String?, paymentId: String?
    ) -> UTF8Text {
        let count = count(amount: amount, name: name, phone: phone, reference: reference, paymentId: paymentId)
        var text = UTF8Text(count: count) { writer in
            write(into: &writer, amount: amount, name: name, phone: phone, reference: reference, paymentId: paymentId)
        }
        text.trimTrailingSpaces()
        return text
    }

    /// ``fill(amount:name:phone:reference:paymentId:)`` into `text`, reusing its storage when no
    /// other text shares it (``UTF8Text/rewrite(count:_:)``): a connection keeps its last
    /// confirmation, and the next one is written over it without an allocation and a free.
    ///
    /// The text learns on the way whether it needs escaping in JSON (``UTF8Text/isEscapeFree``)
    /// from what each piece is: the literal text was looked at once, when the template was
    /// split, and the amount is digits, so only the name, phone, reference and payment id are
    /// looked at as they are copied; an escape-free confirmation then goes into the response
    /// between quotes as one append, where the writer looked at all of its bytes again (about 200
    /// instructions a `tatra.executePayment`).
    func fill(
        into text: inout UTF8Text, amount: UnsafeRawBufferPointer, name: String, phone: String, reference: String?,
        paymentId: String?
    ) {
        let count = count(amount: amount, name: name, phone: phone, reference: reference, paymentId: paymentId)
        text.rewrite(count: count) { writer in
            write(into: &writer, amount: amount, name: name, phone: phone, reference: reference, paymentId: paymentId)
        }
        text.trimTrailingSpaces()
    }

    /// How many bytes the filled-in template has (before trailing spaces are dropped).
    @inline(__always)
    private func count(
        amount: UnsafeRawBufferPointer, name: String, phone: String, reference: String?, paymentId: String?
    ) -> Int {
        var count = literals.count
        for piece in pieces {
            switch piece.value {
            case .amount?: count += amount.count
            case .name?: count += name.utf8.count
            case .phone?: count += phone.utf8.count
            case .reference?: count += reference?.utf8.count ?? 0
            case .paymentId?: count += paymentId?.utf8.count ?? 0
            case nil: break
            }
        }
        return count
    }

    /// Writes the literal text and the values, piece by piece.
    @inline(__always)
    private func write(
        into writer: inout UTF8Text.Writer, amount: UnsafeRawBufferPointer, name: String, phone: String,
        reference: String?, paymentId: String?
    ) {
        let literalsAreEscapeFree = literals.isEscapeFree
        literals.withUnsafeBytes { literals in
            for piece in pieces {
                let literal = UnsafeRawBufferPointer(rebasing: literals[piece.literal])
                if literalsAreEscapeFree { writer.append(escapeFreeUTF8: literal) } else { writer.append(utf8: literal) }
                switch piece.value {
                case .amount?: writer.append(escapeFreeUTF8: amount)
                case .name?: writer.append(name)
                case .phone?: writer.append(phone)
                case .reference?: if let reference { writer.append(reference) }
                case .paymentId?: if let paymentId { writer.append(paymentId) }
                case nil: break
                }
            }
        }
    }

    /// A `{name}` that is not a known placeholder.
    struct UnknownPlaceholder: Error {
        let name: String
    }
}
