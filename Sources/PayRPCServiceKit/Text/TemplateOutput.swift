import PayRPCJSON

/// Where the values of a template's placeholders go while ``TextTemplate`` fills it in: the
/// service's closure appends the value of the placeholder it is asked for.
///
/// The template calls that closure twice per placeholder, first to measure the text and then to
/// write it into a buffer of exactly that size, so the closure must append the same both times.
/// The values are borrowed from the caller and copied straight into the text: nothing is gathered
/// into an intermediate value or made into a `String`.
public struct TemplateOutput: ~Copyable {
    /// The bytes appended so far, while measuring.
    @usableFromInline var measured = 0
    /// The writer of the text, while writing; nil while measuring.
    @usableFromInline let writer: UnsafeMutablePointer<UTF8Text.Writer>?

    @inlinable
    init(writingTo writer: UnsafeMutablePointer<UTF8Text.Writer>?) {
        self.writer = writer
    }

    /// Appends `string` (looked at for what JSON escapes as it is copied).
    @inlinable
    public mutating func append(_ string: String) {
        if let writer { writer.pointee.append(string) } else { measured &+= string.utf8.count }
    }

    /// Appends `string`, or nothing when it is nil (an absent value leaves its placeholder empty).
    @inlinable
    public mutating func append(_ string: String?) {
        if let string { append(string) }
    }

    /// Appends the text of `amount`, which needs no escaping.
    @inlinable
    public mutating func append(_ amount: MinorUnitsText) {
        if let writer { writer.pointee.append(amount) } else { measured &+= amount.count }
    }
}
