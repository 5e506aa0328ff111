/// One request line split around its `"id"` value, so the bench writes `prefix + id + suffix` per
/// request without formatting JSON.
struct RequestTemplate {
    /// The bytes before the id value.
    let prefix: [UInt8]
    /// The bytes after the id value.
    let suffix: [UInt8]
    /// How many requests one line carries: 1, or the length of a batch array.
    let batchSize: Int

    /// Makes a template from one JSON-RPC request object.
    /// - Throws: ``BenchError`` when the line is not an object with a top-level `"id"`, or contains a
    ///   newline.
    init(requestLine: String, batchSize: Int = 1) throws(BenchError) {
        let bytes = Array(requestLine.utf8)
        if bytes.contains(UInt8(ascii: "\n")) {
            throw BenchError("the request line must not contain a newline")
        }
        let range = bytes.withUnsafeBytes { ResponseScanner.idValueRange($0) }
        guard let range else {
            throw BenchError(#"the request must be one JSON object with a top-level "id" member"#)
        }
        guard batchSize >= 1 else { throw BenchError("the batch size must be at least 1") }
        prefix = Array(bytes[..<range.lowerBound])
        suffix = Array(bytes[range.upperBound...])
        self.batchSize = batchSize
    }

    /// Appends one line (one request, or a batch of ``batchSize`` requests) with its newline to `out`;
    /// `nextID` is called once per request and returns the id to use.
    @inline(__always)
    func appendLine(to out: inout [UInt8], nextID: () -> UInt64) {
        if batchSize == 1 {
            appendRequest(to: &out, id: nextID())
        } else {
            out.append(UInt8(ascii: "["))
            for k in 0..<batchSize {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                appendRequest(to: &out, id: nextID())
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "\n"))
    }

    @inline(__always)
    private func appendRequest(to out: inout [UInt8], id: UInt64) {
        out.append(contentsOf: prefix)
        RequestTemplate.appendDecimal(id, to: &out)
        out.append(contentsOf: suffix)
    }

    /// Appends the decimal digits of `value`.
    @inline(__always)
    static func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes of scratch
        withUnsafeMutableBytes(of: &digits) { scratch in
            var v = value
            var i = scratch.count
            repeat {
                i -= 1
                scratch[i] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
            } while v > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[i...]))
        }
    }
}
