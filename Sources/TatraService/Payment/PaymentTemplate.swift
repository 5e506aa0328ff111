/// A confirmation text template of `tatra-sandbox.json` (`Pay {amount} {currency} to {name}?`),
/// split into literal text and placeholders once, when the sandbox data is loaded, so that filling
/// it in on the payment path is a few appends.
struct PaymentTemplate: Sendable, Equatable {
    /// A placeholder a template may use.
    enum Placeholder: String, Sendable, CaseIterable {
        case amount, currency, name, phone, reference, paymentId
    }

    enum Segment: Sendable, Equatable {
        case text(String)
        case placeholder(Placeholder)
    }

    let segments: [Segment]

    /// Splits `template`.
    /// - Throws: ``UnknownPlaceholder`` naming a `{...}` that is not a ``Placeholder``.
    init(_ template: String) throws(UnknownPlaceholder) {
        var segments: [Segment] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = rest[rest.index(after: open)..<close]
            guard let placeholder = Placeholder(rawValue: String(name)) else { throw UnknownPlaceholder(name: String(name)) }
            if open > rest.startIndex { segments.append(.text(String(rest[..<open]))) }
            segments.append(.placeholder(placeholder))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { segments.append(.text(String(rest))) }
        self.segments = segments
    }

    /// The text with every placeholder replaced by `value(placeholder)`, without surrounding spaces.
    func fill(_ value: (Placeholder) -> String) -> String {
        var text = ""
        text.reserveCapacity(96)
        for segment in segments {
            switch segment {
            case .text(let literal): text += literal
            case .placeholder(let placeholder): text += value(placeholder)
            }
        }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// A `{name}` that is not a known placeholder.
    struct UnknownPlaceholder: Error {
        let name: String
    }
}
