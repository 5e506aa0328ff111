/// A JSON number held exactly, as its significant decimal digits and a power of ten.
///
/// JSON Schema compares and divides numbers by value: `0.3` is a multiple of `0.1`, and
/// `1e400` is larger than any `Double`. Binary floating point gets both wrong, so bounds and
/// `multipleOf` compare these instead (after cheap `Int64` fast paths).
struct DecimalNumber: Sendable, Comparable, CustomStringConvertible {
    /// Whether the value is below zero (never set for zero).
    var negative: Bool
    /// The significant digits (0...9), without leading or trailing zeros; empty for zero.
    var digits: [UInt8]
    /// The value is `digits` (read as an integer) × 10^exponent.
    var exponent: Int

    /// Parses the JSON number grammar; nil for anything else.
    init?<Bytes: Collection<UInt8>>(json bytes: Bytes) {
        var digits: [UInt8] = []
        var exponent = 0
        var index = bytes.startIndex
        var negative = false
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index = bytes.index(after: index)
        }
        var sawDigit = false
        while index < bytes.endIndex, let digit = Self.digit(bytes[index]) {
            sawDigit = true
            if !(digits.isEmpty && digit == 0) { digits.append(digit) }
            index = bytes.index(after: index)
        }
        guard sawDigit else { return nil }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index = bytes.index(after: index)
            var sawFraction = false
            while index < bytes.endIndex, let digit = Self.digit(bytes[index]) {
                sawFraction = true
                if !(digits.isEmpty && digit == 0) { digits.append(digit) }
                exponent -= 1
                index = bytes.index(after: index)
            }
            guard sawFraction else { return nil }
        }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index = bytes.index(after: index)
            var negativeExponent = false
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index = bytes.index(after: index)
            }
            var value = 0
            var sawExponent = false
            while index < bytes.endIndex, let digit = Self.digit(bytes[index]) {
                sawExponent = true
                value = Swift.min(value * 10 + Int(digit), 1 << 40)  // saturates far beyond any real number
                index = bytes.index(after: index)
            }
            guard sawExponent else { return nil }
            exponent += negativeExponent ? -value : value
        }
        guard index == bytes.endIndex else { return nil }
        while let last = digits.last, last == 0 {
            digits.removeLast()
            exponent += 1
        }
        self.negative = negative && !digits.isEmpty
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : exponent
    }

    /// Parses a number's text.
    init?(_ text: String) {
        self.init(json: Array(text.utf8))
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : nil
    }

    /// Whether the value is zero.
    var isZero: Bool { digits.isEmpty }

    /// Whether the value has no fractional part (`1.0` and `1e2` are integers).
    var isInteger: Bool { digits.isEmpty || exponent >= 0 }

    /// The value as an `Int64`, when it is an integer in range.
    var int64: Int64? {
        guard isInteger, digits.count + exponent <= 18 else { return nil }
        var value: Int64 = 0
        for digit in digits { value = value * 10 + Int64(digit) }
        for _ in 0..<exponent { value *= 10 }
        return negative ? -value : value
    }

    static func < (left: DecimalNumber, right: DecimalNumber) -> Bool {
        if left.negative != right.negative { return left.negative }
        let magnitudeLess = compareMagnitude(left, right)
        return left.negative ? magnitudeLess == .greater : magnitudeLess == .less
    }

    private enum Order { case less, equal, greater }

    private static func compareMagnitude(_ left: DecimalNumber, _ right: DecimalNumber) -> Order {
        if left.isZero || right.isZero {
            return left.isZero && right.isZero ? .equal : (left.isZero ? .less : .greater)
        }
        let leftOrder = left.digits.count + left.exponent
        let rightOrder = right.digits.count + right.exponent
        if leftOrder != rightOrder { return leftOrder < rightOrder ? .less : .greater }
        if left.digits == right.digits { return .equal }
        return left.digits.lexicographicallyPrecedes(right.digits) ? .less : .greater
    }

    /// Whether `self` divided by `divisor` is an integer, computed exactly when the divisor
    /// has at most 19 significant digits (else through `Double`, where an infinite quotient
    /// counts as not a multiple).
    func isMultiple(of divisor: DecimalNumber) -> Bool {
        if isZero { return true }
        guard !divisor.isZero else { return false }
        guard divisor.digits.count <= 19 else {
            guard let value = Double(description), let step = Double(divisor.description) else { return false }
            let quotient = value / step
            return quotient.isFinite && quotient.rounded() == quotient
        }
        // self = m·10^e, divisor = d·10^f with m, d free of trailing zeros.
        let shift = exponent - divisor.exponent
        if shift < 0 { return false }  // m would need to be divisible by 10
        var modulus: UInt64 = 0
        for digit in divisor.digits { modulus = modulus * 10 + UInt64(digit) }
        if modulus == 1 { return true }
        var remainder: UInt64 = 0
        for digit in digits {
            remainder = Self.mulMod(remainder, 10, modulus)
            remainder = (remainder + UInt64(digit)) % modulus
        }
        remainder = Self.mulMod(remainder, Self.powMod(10, shift, modulus), modulus)
        return remainder == 0
    }

    private static func mulMod(_ left: UInt64, _ right: UInt64, _ modulus: UInt64) -> UInt64 {
        let product = left.multipliedFullWidth(by: right)
        return modulus.dividingFullWidth((product.high % modulus, product.low)).remainder
    }

    private static func powMod(_ base: UInt64, _ exponent: Int, _ modulus: UInt64) -> UInt64 {
        var result: UInt64 = 1 % modulus
        var base = base % modulus
        var exponent = exponent
        while exponent > 0 {
            if exponent & 1 == 1 { result = mulMod(result, base, modulus) }
            base = mulMod(base, base, modulus)
            exponent >>= 1
        }
        return result
    }

    /// The value in scientific-free form where short (`12.5`), else `digitsE±exponent`.
    var description: String {
        if digits.isEmpty { return "0" }
        let sign = negative ? "-" : ""
        let text = String(digits.map { Character(Unicode.Scalar($0 + 48)) })
        if exponent >= 0 && exponent <= 20 { return sign + text + String(repeating: "0", count: exponent) }
        if exponent < 0 && -exponent < digits.count {
            let split = digits.count + exponent
            return sign + String(text.prefix(split)) + "." + String(text.dropFirst(split))
        }
        if exponent < 0 && -exponent - digits.count <= 20 {
            return sign + "0." + String(repeating: "0", count: -exponent - digits.count) + text
        }
        return sign + text + "e" + String(exponent)
    }
}
