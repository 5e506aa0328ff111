import PayRPCJSON

/// The checks of schema keywords on one value, as the validator makes them, for the decoders
/// `payrpc-codegen` writes (``CheckedJSONDecodable``): each answers exactly what the validator's
/// keyword answers for a value of the kind the keyword applies to.
public enum SchemaRules {
    /// `minLength`: whether a string has at least `minimum` code points.
    @inlinable
    public static func hasLength(_ value: JSONElement, atLeast minimum: Int) -> Bool {
        guard let content = value.stringContentBytes else { return true }
        if content.count < minimum { return false }
        return minimum <= 1 || codePoints(value) >= minimum
    }

    /// `maxLength`: whether a string has at most `maximum` code points.
    @inlinable
    public static func hasLength(_ value: JSONElement, atMost maximum: Int) -> Bool {
        guard let content = value.stringContentBytes else { return true }
        return content.count <= maximum || codePoints(value) <= maximum
    }

    /// The number of code points of a string value.
    @usableFromInline
    static func codePoints(_ value: JSONElement) -> Int { CompiledSchema.codePointCount(value) }

    /// `type: integer` and the codec's `Int64`, for a number written as a plain integer (no
    /// fraction, no exponent, at most 19 bytes): its value. Nil for anything else, also for
    /// integers the validator accepts in other spellings (`1.0`, `1e2`): the caller then asks it.
    @inlinable
    public static func plainInteger(_ value: JSONElement) -> Int64? {
        guard value.kind == .number else { return nil }
        let bytes = value.rawBytes
        guard bytes.count <= 19 else { return nil }
        var index = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") {
            negative = true
            index = 1
        }
        guard index < bytes.count else { return nil }
        var magnitude: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            // 18 digits always fit; a 19th may overflow.
            let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int64(digit))
            guard !overflow, !overflow2 else { return nil }
            magnitude = sum
            index += 1
        }
        return negative ? -magnitude : magnitude
    }
}

/// A `minimum`, `maximum`, `exclusiveMinimum` or `exclusiveMaximum` whose bound is not an
/// `Int64` (a decimal bound, or any bound of a `number` field), compared exactly as the
/// validator compares.
public struct NumberRule: Sendable {
    private let bound: NumberBound

    /// The rule of `keyword` (`minimum`, ...) with the bound written as `text`, a JSON number;
    /// nil for another keyword or a text that is not a number.
    public init?(keyword: String, bound text: String) {
        guard let kind = NumberBound.Kind(rawValue: keyword), let value = DecimalNumber(text) else { return nil }
        bound = NumberBound(kind: kind, value: value)
    }

    /// Whether `value` (a number; other kinds pass) keeps the bound.
    public func holds(_ value: JSONElement) -> Bool {
        var run = ValidationRun(collect: false)
        return CompiledSchema.checkBound(bound, value, &run)
    }
}

/// `multipleOf`, exactly as the validator divides.
public struct MultipleOfRule: Sendable {
    private let divisor: DecimalNumber

    /// The rule for the divisor written as `text`; nil for a text that is not a positive number.
    public init?(_ text: String) {
        guard let divisor = DecimalNumber(text), !divisor.negative, !divisor.isZero else { return nil }
        self.divisor = divisor
    }

    /// Whether `value` (a number; other kinds pass) is a multiple of the divisor.
    public func holds(_ value: JSONElement) -> Bool {
        var run = ValidationRun(collect: false)
        return CompiledSchema.checkMultipleOf(divisor, value, &run)
    }
}

/// A `pattern`, compiled once (on first use) and matched as the validator matches it.
public final class PatternRule: Sendable {
    private let regex: ECMARegex?

    /// Compiles `pattern` (ECMA-262, as a schema writes it). A pattern ICU refuses matches
    /// nothing: the schema itself does not compile then, so no decoder's answer is taken.
    public init(_ pattern: String) {
        regex = ECMARegex(pattern)
    }

    /// Whether the pattern matches somewhere in the string `value`.
    public func matches(_ value: JSONElement) -> Bool {
        regex?.matches(stringValue: value) ?? false
    }
}

/// A `format` the validator checks (``StringFormat``): `date-time`, `uri`, `email`, ...
public struct FormatRule: Sendable {
    private let format: StringFormat

    /// The rule of `name`; nil for a format the validator does not check (an annotation).
    public init?(_ name: String) {
        guard let format = StringFormat(rawValue: name) else { return nil }
        self.format = format
    }

    /// Whether the string `value` is in the format.
    public func accepts(_ value: JSONElement) -> Bool {
        guard let text = value.string else { return true }
        return format.accepts(text)
    }
}
