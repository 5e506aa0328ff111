import Foundation
import PayRPCCore

/// A connection without a socket: lines go in through ``TestConnection``, the engine's output is
/// split into lines and kept for the test to read. Implements the same contract as the libuv
/// transport's connections.
final class MemoryConnection: RPCConnection, @unchecked Sendable {
    let id: UInt64
    let transport: TransportKind
    let peer = "memory"
    let loop: any EventLoop
    var handler: (any RPCConnectionHandler)?
    private var pending: [UInt8] = []
    let sink: LineSink
    var paused = false
    var held: [[UInt8]] = []
    var finished = false

    init(id: UInt64, transport: TransportKind, loop: any EventLoop, sink: LineSink) {
        self.id = id
        self.transport = transport
        self.loop = loop
        self.sink = sink
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        guard !finished else { return }
        pending.append(contentsOf: bytes)
        while let newline = pending.firstIndex(of: 0x0A) {
            sink.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
    }

    func setReadingPaused(_ paused: Bool) {
        self.paused = paused
        sink.recordPause(paused)
        while !self.paused, !held.isEmpty {
            let line = held.removeFirst()
            line.withUnsafeBytes { handler?.received(line: $0) }
        }
    }

    func finish() {
        finished = true
        handler?.connectionClosed()
        sink.close()
    }

    func deliver(_ line: [UInt8]) {
        guard !finished else { return }
        if paused || !held.isEmpty {
            held.append(line)
            return
        }
        line.withUnsafeBytes { handler?.received(line: $0) }
    }
}

/// The lines a connection wrote, waited for by the test thread.
final class LineSink: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []
    private(set) var closed = false
    private(set) var pauses = 0

    func append(_ line: String) {
        condition.lock()
        lines.append(line)
        condition.broadcast()
        condition.unlock()
    }

    func recordPause(_ paused: Bool) {
        condition.lock()
        if paused { pauses += 1 }
        condition.unlock()
    }

    var pauseCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return pauses
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }

    /// Removes and returns the first line that matches, waiting up to `timeout`.
    func take(timeout: Duration, where matches: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let index = lines.firstIndex(where: matches) { return lines.remove(at: index) }
            if closed || !condition.wait(until: deadline) {
                if let index = lines.firstIndex(where: matches) { return lines.remove(at: index) }
                return nil
            }
        }
    }

    /// Every line received so far, leaving them in place.
    var snapshot: [String] {
        condition.lock()
        defer { condition.unlock() }
        return lines
    }
}
