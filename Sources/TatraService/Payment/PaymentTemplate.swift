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
    ///
    /// Put together as UTF-8 bytes and made a `String` once: appending to a `String` costs a few
    /// hundred instructions per piece, most of it for keeping its grapheme breaks right.
    func fill(_ value: (Placeholder) -> String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160)
        func append(_ text: String) {
            // A native string's UTF-8 is contiguous: one copy (appending the UTF8View walks it).
            if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
                bytes.append(contentsOf: text.utf8)
            }
        }
        for segment in segments {
            switch segment {
            case .text(let literal): append(literal)
            case .placeholder(let placeholder): append(value(placeholder))
            }
        }
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A `{name}` that is not a known placeholder.
    struct UnknownPlaceholder: Error {
        let name: String
    }
}
