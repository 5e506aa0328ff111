import PayRPCJSON

/// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`: exact
/// decimal arithmetic, with an `Int64` fast path.
extension CompiledSchema {
    static func checkBound(_ bound: NumberBound, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .number else { return true }
        let order: Int
        if let integer = bound.integer, let number = NumberText.plainInteger(value) {
            order = number < integer ? -1 : (number == integer ? 0 : 1)
        } else if let number = DecimalNumber(json: value.rawBytes) {
            order = number < bound.value ? -1 : (bound.value < number ? 1 : 0)
        } else {
            return true
        }
        switch bound.kind {
        case .minimum: return order >= 0 || run.fail("minimum", "must be ≥ \(bound.value)")
        case .maximum: return order <= 0 || run.fail("maximum", "must be ≤ \(bound.value)")
        case .exclusiveMinimum: return order > 0 || run.fail("exclusiveMinimum", "must be > \(bound.value)")
        case .exclusiveMaximum: return order < 0 || run.fail("exclusiveMaximum", "must be < \(bound.value)")
        }
    }

    static func checkMultipleOf(_ divisor: DecimalNumber, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .number else { return true }
        if let step = divisor.int64, step > 0, let number = NumberText.plainInteger(value) {
            return number % step == 0 || run.fail("multipleOf", "must be a multiple of \(divisor)")
        }
        guard let number = DecimalNumber(json: value.rawBytes) else { return true }
        return number.isMultiple(of: divisor) || run.fail("multipleOf", "must be a multiple of \(divisor)")
    }
}
