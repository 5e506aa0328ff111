import PayRPCJSON

/// `type`, `enum`, `const`.
extension CompiledSchema {
    func checkType(_ types: JSONTypeSet, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        let matches: Bool
        switch value.kind {
        case .null: matches = types.contains(.null)
        case .bool: matches = types.contains(.boolean)
        case .object: matches = types.contains(.object)
        case .array: matches = types.contains(.array)
        case .string: matches = types.contains(.string)
        case .number:
            matches = types.contains(.number) || (types.contains(.integer) && NumberText.isInteger(value))
        }
        if matches { return true }
        return run.fail("type", "expected \(types.names.joined(separator: " or ")), found \(NumberText.kindName(value))")
    }

    func checkEnum(_ values: [JSONElement], _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        for candidate in values where candidate.jsonEquals(value) { return true }
        return run.fail("enum", "must be one of \(Self.list(values))")
    }

    func checkConst(_ constant: JSONElement, _ value: JSONElement, _ run: inout ValidationRun) -> Bool {
        constant.jsonEquals(value) || run.fail("const", "must be \(MessageText.excerpt(constant.rawText))")
    }

    /// Up to five values as JSON, each cut to fit and fewer when they are long, for messages.
    static func list(_ values: [JSONElement]) -> String {
        var shown: [String] = []
        var length = 0
        for value in values.prefix(5) {
            let text = MessageText.excerpt(value.rawText, limit: 40)
            if !shown.isEmpty && length + text.count > 120 { break }
            shown.append(text)
            length += text.count + 2
        }
        let list = shown.joined(separator: ", ")
        return values.count > shown.count ? "\(list), ... (\(values.count) values)" : list
    }
}

/// Reading numbers without allocating on the common path.
enum NumberText {
    /// Whether a number has a zero fraction (`1`, `1.0`, `1e2`).
    static func isInteger(_ value: JSONElement) -> Bool {
        let bytes = value.rawBytes
        if !bytes.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            return true
        }
        return DecimalNumber(json: bytes)?.isInteger ?? false
    }

    /// The value as an `Int64` when written as a plain integer in range (no fraction, no exponent).
    static func plainInteger(_ value: JSONElement) -> Int64? {
        let bytes = value.rawBytes
        guard bytes.count <= 19,
            !bytes.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
        else { return nil }
        return value.int64
    }

    /// The value's JSON Schema type name, for messages.
    static func kindName(_ value: JSONElement) -> String {
        switch value.kind {
        case .null: "null"
        case .bool: "boolean"
        case .object: "object"
        case .array: "array"
        case .string: "string"
        case .number: isInteger(value) ? "integer" : "number"
        }
    }
}
