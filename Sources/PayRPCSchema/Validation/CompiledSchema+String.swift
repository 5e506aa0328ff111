import PayRPCJSON

/// `minLength`, `maxLength` (in Unicode code points), `pattern`, `format`.
extension CompiledSchema {
    /// The number of Unicode scalars in a string value, counted on its UTF-8 bytes when it
    /// has no escapes (no allocation).
    static func codePointCount(_ value: JSONElement) -> Int {
        guard let content = value.stringContentBytes else { return 0 }
        if content.contains(UInt8(ascii: "\\")) { return value.string?.unicodeScalars.count ?? 0 }
        var count = 0
        for byte in content where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }

    func checkLength(minimum: Int, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .string else { return true }
        return Self.codePointCount(value) >= minimum
            || run.fail("minLength", "must be at least \(minimum) character\(minimum == 1 ? "" : "s") long")
    }

    func checkLength(maximum: Int, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard value.kind == .string else { return true }
        return Self.codePointCount(value) <= maximum
            || run.fail("maxLength", "must be at most \(maximum) character\(maximum == 1 ? "" : "s") long")
    }

    func checkPattern(_ regex: ECMARegex, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard let text = value.string else { return true }
        return regex.matches(text)
            || run.fail("pattern", "does not match the pattern \(MessageText.excerpt(regex.pattern, limit: 120))")
    }

    func checkFormat(_ format: StringFormat, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        guard let text = value.string else { return true }
        return format.accepts(text) || run.fail("format", "must be \(format.words)")
    }
}
