#if canImport(Glibc)
import Glibc
#endif

/// One client connection of the load generator: a non-blocking descriptor pair (the same socket twice,
/// or a spawned server's stdin and stdout pipes), its unsent output, its unparsed input and the
/// requests awaiting a response.
final class LoadConnection {
    /// Where responses are read from.
    let readFD: Int32
    /// Where requests are written to.
    let writeFD: Int32
    /// Whether closing the connection closes the descriptors (false for a spawned server's pipes,
    /// which the spawned server's `SpawnedProcess` closes).
    private let ownsDescriptors: Bool

    /// Request bytes not yet accepted by the kernel, from ``outSent`` on.
    var out: [UInt8] = []
    private var outSent = 0
    /// Requests awaiting a response.
    var table: InFlightTable
    /// Lines (single requests or batches) awaiting a response.
    var linesInFlight = 0
    /// False after EOF, a reset, or a write error.
    private(set) var isOpen = true

    private var input: UnsafeMutableRawPointer
    private var inputCapacity: Int
    private var inputLength = 0

    init(readFD: Int32, writeFD: Int32, ownsDescriptors: Bool, tableCapacity: Int) {
        self.readFD = readFD
        self.writeFD = writeFD
        self.ownsDescriptors = ownsDescriptors
        table = InFlightTable(capacity: tableCapacity)
        inputCapacity = 256 * 1024
        input = UnsafeMutableRawPointer.allocate(byteCount: inputCapacity, alignment: 16)
        out.reserveCapacity(64 * 1024)
    }

    deinit {
        close()
        input.deallocate()
    }

    /// Whether requests wait to be written.
    var hasPendingOutput: Bool { outSent < out.count }

    /// Writes as much pending output as the kernel takes now. Returns false when the connection broke.
    @discardableResult
    func flush() -> Bool {
        while isOpen && outSent < out.count {
            let n = out.withUnsafeBytes { bytes in
                write(writeFD, bytes.baseAddress! + outSent, bytes.count - outSent)
            }
            if n > 0 {
                outSent += n
            } else if n < 0 && errno == EINTR {
                continue
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else {
                close()
                return false
            }
        }
        if outSent == out.count {
            out.removeAll(keepingCapacity: true)
            outSent = 0
        } else if outSent > 1 << 20 {
            out.removeFirst(outSent)
            outSent = 0
        }
        return isOpen
    }

    /// Reads what has arrived and calls `line` for each complete line (without `\n`). Returns false
    /// at EOF or on a read error (the connection is then closed).
    @discardableResult
    func readLines(_ line: (UnsafeRawBufferPointer) -> Void) -> Bool {
        guard isOpen else { return false }
        if inputLength == inputCapacity {
            // A line longer than the buffer: grow it.
            let bigger = UnsafeMutableRawPointer.allocate(byteCount: inputCapacity * 2, alignment: 16)
            bigger.copyMemory(from: input, byteCount: inputLength)
            input.deallocate()
            input = bigger
            inputCapacity *= 2
        }
        let n = read(readFD, input + inputLength, inputCapacity - inputLength)
        if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            close()
            return false
        }
        if n < 0 { return true }
        let scanFrom = inputLength
        inputLength += n
        var lineStart = 0
        var cursor = scanFrom
        while cursor < inputLength,
            let found = memchr(input + cursor, Int32(UInt8(ascii: "\n")), inputLength - cursor)
        {
            let newline = found - input
            var end = newline
            if end > lineStart, input.load(fromByteOffset: end - 1, as: UInt8.self) == UInt8(ascii: "\r") {
                end -= 1
            }
            if end > lineStart {
                line(UnsafeRawBufferPointer(start: input + lineStart, count: end - lineStart))
            }
            lineStart = newline + 1
            cursor = lineStart
        }
        if lineStart > 0 {
            let rest = inputLength - lineStart
            if rest > 0 { memmove(input, input + lineStart, rest) }
            inputLength = rest
        }
        return true
    }

    /// Closes the connection (the descriptors too when it owns them). Idempotent.
    func close() {
        guard isOpen else { return }
        isOpen = false
        if ownsDescriptors {
            Glibc.close(readFD)
            if writeFD != readFD { Glibc.close(writeFD) }
        }
    }
}
