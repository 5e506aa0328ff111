import PayRPCFuzzSupport
import PayRPCTransport

/// The line framer fed arbitrary chunkings: the lines it delivers, fed the stream in chunks (and
/// paused at some lines, then fed the rest again, as the connection does), equal what splitting
/// the whole stream at once gives.
///
/// Input: byte 0 picks the line limit, byte 1 how many chunk sizes follow (0-15), then the chunk
/// sizes (1-256 bytes, used in turn), byte 2+n a pause mask; the rest is the stream.
@main
enum FramerFuzz: FuzzTarget {
    static func fuzz(_ input: UnsafeRawBufferPointer) {
        var reader = FuzzBytes(input)
        let limit = 1 + Int(reader.byte()) % 64
        let sizes = (0..<Int(reader.byte() % 16)).map { _ in 1 + Int(reader.byte()) }
        let pauses = reader.byte()
        let stream = reader.rest

        let expected = reference(stream, maxLineBytes: limit)
        let sink = Recorder(pauseMask: pauses)
        var framer = LineFramer(maxLineBytes: limit)
        var offset = 0
        var chunk = 0
        while offset < stream.count {
            let size = sizes.isEmpty ? stream.count : min(sizes[chunk % sizes.count], stream.count - offset)
            chunk += 1
            var piece = UnsafeRawBufferPointer(rebasing: stream[offset..<(offset + size)])
            // A paused sink gets the unconsumed rest again, as the transport feeds it on resume.
            while !piece.isEmpty {
                let consumed = framer.process(piece, into: sink)
                fuzzCheck(consumed > 0 && consumed <= piece.count, "consumed \(consumed) of \(piece.count)")
                piece = UnsafeRawBufferPointer(rebasing: piece[consumed...])
            }
            offset += size
        }
        framer.finish(into: sink)
        fuzzCheck(!framer.hasPartialLine, "a partial line is left after finish")
        fuzzCheck(sink.events == expected, "chunks \(sizes), limit \(limit): framed \(sink.events), whole \(expected)")
    }

    /// What the framer reports, from the whole stream: split at `\n`, drop one `\r` before it,
    /// skip blank lines (space, tab, CR), report lines over the limit as oversized.
    static func reference(_ stream: UnsafeRawBufferPointer, maxLineBytes: Int) -> [Recorder.Event] {
        var events: [Recorder.Event] = []
        var lines = stream.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        for var line in lines {
            if line.last == 0x0D { line.removeLast() }
            if line.count > maxLineBytes {
                events.append(.oversized)
            } else if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                events.append(.line(line))
            }
        }
        return events
    }
}

/// Records what the framer delivers; pauses after the lines the mask picks.
final class Recorder: LineFramerSink {
    enum Event: Equatable { case line([UInt8]), oversized }
    var events: [Event] = []
    let pauseMask: UInt8

    init(pauseMask: UInt8) { self.pauseMask = pauseMask }

    func framedLine(_ line: UnsafeRawBufferPointer) -> Bool {
        events.append(.line(Array(line)))
        return pauseMask & (1 << UInt8(events.count % 8)) == 0
    }

    func framedOversizedLine() -> Bool {
        events.append(.oversized)
        return pauseMask & (1 << UInt8(events.count % 8)) == 0
    }
}
