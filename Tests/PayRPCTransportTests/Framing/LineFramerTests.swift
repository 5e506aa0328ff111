import Testing
@testable import PayRPCTransport

/// Records what the framer reports; can ask it to stop after every line (a paused reader).
final class CollectingSink: LineFramerSink {
    var lines: [String] = []
    var stopAfterEachLine = false
    /// Whether each delivered line pointed into the buffer being fed (no copy).
    var pointedIntoInput: [Bool] = []
    var input: UnsafeRawBufferPointer?

    func framedLine(_ line: UnsafeRawBufferPointer) -> Bool {
        lines.append(String(decoding: line, as: UTF8.self))
        if let input, let start = line.baseAddress, let base = input.baseAddress {
            pointedIntoInput.append(start >= base && start + line.count <= base + input.count)
        } else {
            pointedIntoInput.append(false)
        }
        return !stopAfterEachLine
    }

    func framedOversizedLine() -> Bool {
        lines.append("<oversized>")
        return !stopAfterEachLine
    }
}

/// Feeds `text` to a framer in chunks of `chunkSize` bytes, re-feeding what it did not consume
/// (as the connection does after a pause), then signals EOF if asked.
func frame(_ bytes: [UInt8], chunkSize: Int, maxLineBytes: Int = 1024, stopAfterEachLine: Bool = false, eof: Bool = false) -> (
    lines: [String], framer: LineFramer
) {
    var framer = LineFramer(maxLineBytes: maxLineBytes)
    let sink = CollectingSink()
    sink.stopAfterEachLine = stopAfterEachLine
    var offset = 0
    while offset < bytes.count {
        let end = min(bytes.count, offset + chunkSize)
        var chunk = Array(bytes[offset..<end])
        while !chunk.isEmpty {
            let consumed = chunk.withUnsafeBytes { framer.process($0, into: sink) }
            chunk.removeFirst(consumed)
        }
        offset = end
    }
    if eof { framer.finish(into: sink) }
    return (sink.lines, framer)
}

func frame(_ text: String, chunkSize: Int, maxLineBytes: Int = 1024, stopAfterEachLine: Bool = false, eof: Bool = false)
    -> [String]
{
    frame(Array(text.utf8), chunkSize: chunkSize, maxLineBytes: maxLineBytes, stopAfterEachLine: stopAfterEachLine, eof: eof)
        .lines
}

@Suite("Line framer")
struct LineFramerTests {
    static let chunkSizes = [1, 2, 3, 5, 7, 64, 100_000]

    @Test("LF and CRLF lines, drip-fed and chunked", arguments: chunkSizes)
    func lineEndings(chunkSize: Int) {
        let text = "{\"a\":1}\n{\"b\":2}\r\nthird\nfourth\r\n"
        #expect(frame(text, chunkSize: chunkSize) == ["{\"a\":1}", "{\"b\":2}", "third", "fourth"])
        #expect(frame(text, chunkSize: chunkSize, stopAfterEachLine: true) == ["{\"a\":1}", "{\"b\":2}", "third", "fourth"])
    }

    @Test("Blank and whitespace-only lines are skipped", arguments: chunkSizes)
    func blankLines(chunkSize: Int) {
        let text = "\n\r\n   \n\t \r\n{}\n\n  x  \n"
        #expect(frame(text, chunkSize: chunkSize) == ["{}", "  x  "])
    }

    @Test("An oversized line is reported once, then the next line in the same chunk is delivered", arguments: chunkSizes)
    func oversizedThenGoodLine(chunkSize: Int) {
        let text = String(repeating: "x", count: 50) + "\nok\n" + String(repeating: "y", count: 11) + "\r\nfine\n"
        #expect(frame(text, chunkSize: chunkSize, maxLineBytes: 10) == ["<oversized>", "ok", "<oversized>", "fine"])
    }

    @Test("An oversized line streamed over many chunks is discarded without being buffered")
    func oversizedAcrossChunks() {
        var framer = LineFramer(maxLineBytes: 1000)
        let sink = CollectingSink()
        let chunk = [UInt8](repeating: UInt8(ascii: "z"), count: 4096)
        var largestBuffer = 0
        for _ in 0..<2000 {  // 8 MB of one line
            let consumed = chunk.withUnsafeBytes { framer.process($0, into: sink) }
            #expect(consumed == chunk.count)
            largestBuffer = max(largestBuffer, framer.bufferedByteCount)
        }
        #expect(largestBuffer <= 1001)
        #expect(sink.lines == ["<oversized>"])
        let rest = Array("zzz\nnext\n".utf8)
        _ = rest.withUnsafeBytes { framer.process($0, into: sink) }
        #expect(sink.lines == ["<oversized>", "next"])
        #expect(!framer.hasPartialLine)
    }

    @Test("A line of exactly the limit passes, with LF or CRLF, however it is split", arguments: chunkSizes)
    func exactlyAtLimit(chunkSize: Int) {
        let atLimit = String(repeating: "a", count: 8)
        let text = atLimit + "\r\n" + atLimit + "\n" + atLimit + "b\r\n" + "end\n"
        #expect(frame(text, chunkSize: chunkSize, maxLineBytes: 8) == [atLimit, atLimit, "<oversized>", "end"])
    }

    @Test("Partial lines are reassembled across reads", arguments: [1, 2, 3, 4, 9])
    func reassembly(chunkSize: Int) {
        let line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"rpc.health\"}"
        let lines = frame(line + "\n" + line + "\r\n", chunkSize: chunkSize)
        #expect(lines == [line, line])
    }

    @Test("A last line without a newline is delivered at EOF", arguments: chunkSizes)
    func lastLineAtEOF(chunkSize: Int) {
        #expect(frame("one\ntwo", chunkSize: chunkSize, eof: true) == ["one", "two"])
        #expect(frame("one\ntwo\r", chunkSize: chunkSize, eof: true) == ["one", "two"])
        #expect(frame("one\n   ", chunkSize: chunkSize, eof: true) == ["one"])
        #expect(frame("one\n", chunkSize: chunkSize, eof: true) == ["one"])
        #expect(frame(String(repeating: "q", count: 30), chunkSize: chunkSize, maxLineBytes: 10, eof: true) == ["<oversized>"])
    }

    @Test("Without EOF a partial line is held back, and reset drops it")
    func partialHeldBack() {
        var (lines, framer) = frame(Array("one\ntw".utf8), chunkSize: 100)
        #expect(lines == ["one"])
        #expect(framer.hasPartialLine)
        #expect(framer.bufferedByteCount == 2)
        framer.reset()
        let sink = CollectingSink()
        framer.finish(into: sink)
        #expect(sink.lines.isEmpty)
        lines = []
    }

    @Test("A line inside one buffer is handed over in place, not copied")
    func zeroCopy() {
        var framer = LineFramer(maxLineBytes: 100)
        let sink = CollectingSink()
        let bytes = Array("first\nsecond\r\nthi".utf8)
        bytes.withUnsafeBytes { buffer in
            sink.input = buffer
            _ = framer.process(buffer, into: sink)
        }
        let rest = Array("rd\n".utf8)
        rest.withUnsafeBytes { buffer in
            sink.input = buffer
            _ = framer.process(buffer, into: sink)
        }
        #expect(sink.lines == ["first", "second", "third"])
        #expect(sink.pointedIntoInput == [true, true, false])
    }

    @Test("A stop request leaves the rest of the buffer unconsumed")
    func stopLeavesRemainder() {
        var framer = LineFramer(maxLineBytes: 100)
        let sink = CollectingSink()
        sink.stopAfterEachLine = true
        let bytes = Array("a\nb\nc".utf8)
        let consumed = bytes.withUnsafeBytes { framer.process($0, into: sink) }
        #expect(consumed == 2)
        #expect(sink.lines == ["a"])
    }

    @Test("Garbage bytes are framed as lines, byte for byte")
    func garbage() {
        var bytes: [UInt8] = [0x00, 0xFF, 0xC3, 0x28, 0x0D, 0x7F, 0x01]
        bytes.append(0x0A)
        bytes.append(contentsOf: Array("ok\n".utf8))
        var framer = LineFramer(maxLineBytes: 100)
        final class RawSink: LineFramerSink {
            var lines: [[UInt8]] = []
            func framedLine(_ line: UnsafeRawBufferPointer) -> Bool {
                lines.append(Array(line))
                return true
            }
            func framedOversizedLine() -> Bool { true }
        }
        let sink = RawSink()
        _ = bytes.withUnsafeBytes { framer.process($0, into: sink) }
        #expect(sink.lines == [[0x00, 0xFF, 0xC3, 0x28, 0x0D, 0x7F, 0x01], Array("ok".utf8)])
    }
}
