import PayRPCJSON

/// Runs the shipped parser (through ``JSONTape``) and ``ReferenceJSONTapeParser`` on the same bytes
/// and says how they differ: the same tape entry for entry, or the same error (kind and offset).
///
/// Used by the differential tests (PayRPCJSONTests) and the `json_reader` fuzz target.
public enum TapeParserDifferential {
    /// What the reference parser made of `bytes`: its entries, or its error.
    public static func reference(_ bytes: UnsafeRawBufferPointer) -> Result<[ReferenceEntry], JSONParseError> {
        var buffer = ReferenceEntryBuffer(capacity: 64)
        defer { buffer.deallocate() }
        do {
            try ReferenceJSONTapeParser.parse(bytes, into: &buffer)
            return .success(buffer.entries)
        } catch {
            return .failure(error)
        }
    }

    /// What the shipped parser made of `bytes` in `tape` (reused as the server reuses its tapes):
    /// its entries, or its error.
    public static func shipped(_ bytes: UnsafeRawBufferPointer, in tape: JSONTape) -> Result<[ReferenceEntry], JSONParseError> {
        do {
            try tape.parse(bytes)
            return .success(
                tape.parsedEntries.map {
                    ReferenceEntry(
                        kind: $0.kind, hasEscapes: $0.hasEscapes, start: $0.start, end: $0.end, next: $0.next, count: $0.count)
                })
        } catch {
            return .failure(error)
        }
    }

    /// A description of the first difference between the two parsers on `bytes`, or nil when they
    /// agree. A fresh tape is used unless `tape` is given (a reused one checks that nothing of an
    /// earlier parse leaks into the next).
    public static func mismatch(_ bytes: UnsafeRawBufferPointer, in tape: JSONTape? = nil) -> String? {
        let expected = reference(bytes)
        let actual = shipped(bytes, in: tape ?? JSONTape())
        switch (expected, actual) {
        case (.success(let want), .success(let got)):
            if want.count != got.count { return "\(got.count) entries, the reference \(want.count)" }
            for index in want.indices where want[index] != got[index] {
                return "entry \(index): \(got[index]), the reference \(want[index])"
            }
            return nil
        case (.failure(let want), .failure(let got)):
            return want == got ? nil : "error \(got), the reference \(want)"
        case (.success, .failure(let got)):
            return "error \(got), the reference parsed it"
        case (.failure(let want), .success):
            return "parsed, the reference: error \(want)"
        }
    }

    /// ``mismatch(_:in:)`` on an array of bytes.
    public static func mismatch(_ bytes: [UInt8], in tape: JSONTape? = nil) -> String? {
        bytes.withUnsafeBytes { mismatch($0, in: tape) }
    }
}
