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

    /// The values the placeholders stand for; an absent reference or payment id leaves its
    /// placeholder empty.
    struct Values {
        var amount: String
        var currency: String
        var name: String
        var phone: String
        var reference: String?
        var paymentId: String?
    }

    /// The text with every placeholder replaced by its value, without spaces at the end.
    ///
    /// Put together as UTF-8 bytes (``UTF8Text``), measured first and then copied into one buffer:
    /// appending to a `String` costs a few hundred instructions per piece, most of it for keeping
    /// its grapheme breaks right, and making a `String` of the bytes checks them again.
    func fill(_ values: Values) -> UTF8Text {
        var count = 0
        walk(values, literal: { count += $0.count }, value: { count += $0.utf8.count })
        var text = UTF8Text(count: count) { writer in
            walk(values, literal: { writer.append($0) }, value: { writer.append($0) })
        }
        text.trimTrailingSpaces()
        return text
    }

    /// Calls `literal` or `value` for each piece in order (an absent reference or payment id is
    /// skipped).
    @inline(__always)
    private func walk(_ values: Values, literal: (UTF8Text) -> Void, value: (String) -> Void) {
        for piece in pieces {
            switch piece {
            case .literal(let index): literal(literals[index])
            case .placeholder(.amount): value(values.amount)
            case .placeholder(.currency): value(values.currency)
            case .placeholder(.name): value(values.name)
            case .placeholder(.phone): value(values.phone)
            case .placeholder(.reference): if let reference = values.reference { value(reference) }
            case .placeholder(.paymentId): if let paymentId = values.paymentId { value(paymentId) }
            }
        }
    }

    /// A `{name}` that is not a known placeholder.
    struct UnknownPlaceholder: Error {
        let name: String
    }
}
