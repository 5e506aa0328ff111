import PayRPCJSON

/// A confirmation text template of `tatra-sandbox.json` (`Pay {amount} {currency} to {name}?`),
/// split into literal text and placeholders once, when the sandbox data is loaded, so that filling
/// it in on the payment path is a few appends.
struct PaymentTemplate: Sendable, Equatable {
    /// A placeholder a template may use.
    enum Placeholder: String, Sendable, CaseIterable {
        case amount, currency, name, phone, reference, paymentId
    }

    /// One piece of the template: literal text (an index into ``literals``) or a placeholder.
    /// Trivial values, so that walking them on the payment path retains nothing.
    enum Piece: Sendable, Equatable {
        case literal(Int)
        case placeholder(Placeholder)
    }

    let pieces: [Piece]
    let literals: [UTF8Text]

    /// Splits `template`.
    /// - Throws: ``UnknownPlaceholder`` naming a `{...}` that is not a ``Placeholder``.
    init(_ template: String) throws(UnknownPlaceholder) {
        var pieces: [Piece] = []
        var literals: [UTF8Text] = []
        func literal(_ text: Substring) {
            pieces.append(.literal(literals.count))
            literals.append(UTF8Text(String(text)))
        }
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = rest[rest.index(after: open)..<close]
            guard let placeholder = Placeholder(rawValue: String(name)) else { throw UnknownPlaceholder(name: String(name)) }
            if open > rest.startIndex { literal(rest[..<open]) }
            pieces.append(.placeholder(placeholder))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { literal(rest) }
        self.pieces = pieces
        self.literals = literals
    }

    /// The text with every placeholder replaced by its value, without spaces at the end; an absent
    /// reference or payment id leaves its placeholder empty. `amount` is the amount's text as
    /// UTF-8 bytes (``PaymentText/withText(cents:_:)`` writes them on the stack).
    ///
    /// Put together as UTF-8 bytes (``UTF8Text``), measured first and then copied into one buffer:
    /// appending to a `String` costs a few hundred instructions per piece, most of it for keeping
    /// its grapheme breaks right, and making a `String` of the bytes checks them again. The values
    /// are parameters, borrowed from the caller: gathered into a struct first, each was retained
    /// and the struct destroyed again (about 280 instructions a `tatra.executePayment`).
    func fill(
        amount: UnsafeRawBufferPointer, currency: String, name: String, phone: String, reference: String?,
        paymentId: String?
    ) -> UTF8Text {
        // Calls `literal`, `value` or `bytes` for each piece in order (an absent reference or
        // payment id is skipped).
        @inline(__always)
        func walk(literal: (UTF8Text) -> Void, value: (String) -> Void, bytes: (UnsafeRawBufferPointer) -> Void) {
            for piece in pieces {
                switch piece {
                case .literal(let index): literal(literals[index])
                case .placeholder(.amount): bytes(amount)
                case .placeholder(.currency): value(currency)
                case .placeholder(.name): value(name)
                case .placeholder(.phone): value(phone)
                case .placeholder(.reference): if let reference { value(reference) }
                case .placeholder(.paymentId): if let paymentId { value(paymentId) }
                }
            }
        }
        var count = 0
        walk(literal: { count += $0.count }, value: { count += $0.utf8.count }, bytes: { count += $0.count })
        var text = UTF8Text(count: count) { writer in
            walk(literal: { writer.append($0) }, value: { writer.append($0) }, bytes: { writer.append(utf8: $0) })
        }
        text.trimTrailingSpaces()
        return text
    }

    /// A `{name}` that is not a known placeholder.
    struct UnknownPlaceholder: Error {
        let name: String
    }
}
