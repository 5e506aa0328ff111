#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Receives what a ``LineFramer`` finds in the bytes it is fed.
///
/// Each method returns whether the framer should go on with the rest of the bytes (`false` when
/// the receiver paused reading, or the connection is finishing).
public protocol LineFramerSink: AnyObject {
    /// One complete line without its `\n` or `\r\n`, never empty or only whitespace. The bytes are
    /// valid only during the call.
    func framedLine(_ line: UnsafeRawBufferPointer) -> Bool

    /// A line passed the size limit; its bytes are discarded.
    func framedOversizedLine() -> Bool
}

/// Splits a byte stream into lines terminated by `\n` or `\r\n`: the framing of newline-delimited
/// JSON.
///
/// A pure value type with no I/O, so that it can be tested by feeding it bytes one at a time or in
/// any chunks. A line that lies entirely inside one fed buffer is handed to the sink as a pointer
/// into that buffer (no copy); only a line split across buffers is reassembled. Blank or
/// whitespace-only lines are skipped. A line longer than `maxLineBytes` is reported once and the
/// rest of it is discarded as it streams in, never buffered.
public struct LineFramer: Sendable {
    /// The longest line, in bytes without its terminator, that is delivered.
    public let maxLineBytes: Int

    /// The start of a line whose end has not arrived yet.
    private var partial: [UInt8] = []
    /// Inside an oversized line: everything up to the next `\n` is dropped.
    private var discarding = false

    /// Creates a framer for lines of at most `maxLineBytes` bytes.
    public init(maxLineBytes: Int) {
        self.maxLineBytes = max(1, maxLineBytes)
    }

    /// Whether the framer holds the start of a line (or is discarding an oversized one).
    public var hasPartialLine: Bool { !partial.isEmpty || discarding }

    /// The bytes of an incomplete line currently buffered (for tests and metrics).
    public var bufferedByteCount: Int { partial.count }

    /// Feeds `bytes` and reports every complete line to `sink`.
    ///
    /// - Returns: How many bytes were consumed. Less than `bytes.count` only when the sink asked
    ///   to stop; the caller keeps the rest and feeds it again later.
    public mutating func process<Sink: LineFramerSink>(_ bytes: UnsafeRawBufferPointer, into sink: Sink) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        let count = bytes.count
        var start = 0
        while start < count {
            guard let found = memchr(base + start, 0x0A, count - start) else {
                absorbIncomplete(UnsafeRawBufferPointer(start: base + start, count: count - start), into: sink)
                return count
            }
            let end = UnsafeRawPointer(found) - base
            let next = end + 1
            if discarding {
                discarding = false
                start = next
                continue
            }
            let proceed: Bool
            if partial.isEmpty {
                var lineEnd = end
                if lineEnd > start && base.load(fromByteOffset: lineEnd - 1, as: UInt8.self) == 0x0D {
                    lineEnd -= 1
                }
                let length = lineEnd - start
                if length > maxLineBytes {
                    proceed = sink.framedOversizedLine()
                } else if LineFramer.isBlank(UnsafeRawBufferPointer(start: base + start, count: length)) {
                    proceed = true
                } else {
                    proceed = sink.framedLine(UnsafeRawBufferPointer(start: base + start, count: length))
                }
            } else {
                proceed = completePartial(with: UnsafeRawBufferPointer(start: base + start, count: end - start), into: sink)
            }
            start = next
            if !proceed { return start }
        }
        return count
    }

    /// The input ended: a last line without a terminator is still delivered.
    public mutating func finish<Sink: LineFramerSink>(into sink: Sink) {
        if discarding {
            discarding = false
            return
        }
        guard !partial.isEmpty else { return }
        if partial.last == 0x0D { partial.removeLast() }
        if partial.count > maxLineBytes {
            _ = sink.framedOversizedLine()
        } else {
            let blank = partial.withUnsafeBytes { LineFramer.isBlank($0) }
            if !blank {
                _ = partial.withUnsafeBytes { sink.framedLine($0) }
            }
        }
        releasePartial()
    }

    /// Forgets an incomplete line (the input is being abandoned, so it will never be complete).
    public mutating func reset() {
        discarding = false
        releasePartial()
    }

    // MARK: - Private

    /// Bytes with no `\n`: keep them as the start of a line, or start discarding when too long.
    private mutating func absorbIncomplete<Sink: LineFramerSink>(_ bytes: UnsafeRawBufferPointer, into sink: Sink) {
        if discarding { return }
        // One byte of slack: the last one may be the `\r` of a `\r\n`.
        if partial.count + bytes.count > maxLineBytes + 1 {
            releasePartial()
            discarding = true
            _ = sink.framedOversizedLine()
            return
        }
        partial.append(contentsOf: bytes)
    }

    /// The `\n` of the buffered line arrived; `tail` is the part of the line before it.
    private mutating func completePartial<Sink: LineFramerSink>(with tail: UnsafeRawBufferPointer, into sink: Sink) -> Bool {
        let lastByte = tail.count > 0 ? tail[tail.count - 1] : partial[partial.count - 1]
        let length = partial.count + tail.count - (lastByte == 0x0D ? 1 : 0)
        if length > maxLineBytes {
            releasePartial()
            return sink.framedOversizedLine()
        }
        partial.append(contentsOf: tail)
        if lastByte == 0x0D { partial.removeLast() }
        let proceed = partial.withUnsafeBytes { line -> Bool in
            if LineFramer.isBlank(line) { return true }
            return sink.framedLine(line)
        }
        releasePartial()
        return proceed
    }

    /// Empties the buffer; a buffer that grew for a long line is given back.
    private mutating func releasePartial() {
        if partial.capacity > 64 * 1024 {
            partial = []
        } else {
            partial.removeAll(keepingCapacity: true)
        }
    }

    /// Whether the bytes are only JSON whitespace (space, tab, CR).
    @inline(__always)
    static func isBlank(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes where byte != 0x20 && byte != 0x09 && byte != 0x0D {
            return false
        }
        return true
    }
}
