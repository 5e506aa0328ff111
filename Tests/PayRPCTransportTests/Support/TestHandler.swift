import Foundation
import PayRPCCore

/// Makes ``TestHandler``s and records what happens to them in ``events``.
final class TestHandlerFactory: RPCConnectionHandlerFactory, @unchecked Sendable {
    let events = TestEvents()
    /// Requests in flight per connection above which a handler pauses reading (0: never).
    let inFlightLimit: Int

    init(inFlightLimit: Int = 0) {
        self.inFlightLimit = inFlightLimit
    }

    private let lock = NSLock()
    private var parked: [String: @Sendable () -> Void] = [:]

    func makeHandler(for connection: any RPCConnection) -> any RPCConnectionHandler {
        events.record("open \(connection.transport.rawValue)")
        return TestHandler(connection: connection, factory: self, inFlightLimit: inFlightLimit)
    }

    /// Keeps the completion of an `await NAME ...` request until ``release(_:)``.
    func park(_ name: String, _ completion: @escaping @Sendable () -> Void) {
        lock.withLock { parked[name] = completion }
        events.record("parked \(name)")
    }

    private var mostHeld = 0

    /// The most answer bytes a handler of this factory held unwritten at once (`gather N`).
    var maximumHeld: Int { lock.withLock { mostHeld } }

    func noteHeld(_ bytes: Int) {
        lock.withLock { mostHeld = max(mostHeld, bytes) }
    }

    /// Completes the request parked as `name` (it answers from the loop thread).
    func release(_ name: String) {
        let completion = lock.withLock { parked.removeValue(forKey: name) }
        completion?()
    }
}

/// A small engine stand-in. Every line is a command:
/// - `later MS TEXT`: answers `TEXT` after MS milliseconds (`loop.schedule`);
/// - `await NAME TEXT`: answers `TEXT` when the test calls `factory.release(NAME)`;
/// - `offloop TEXT`: answers `TEXT` from another thread through `loop.execute`;
/// - `big N`: answers one line of N `x`;
/// - `gather N`: answers one line of N `g`, held (and reported as held) until the read's lines
///   have been delivered, the way the engine gathers a read's answers;
/// - `hang`: never answers (the request stays in flight);
/// - `quit`: answers `bye` and finishes the connection at once;
/// - anything else is echoed back.
/// An oversized line is answered `oversized LIMIT`. At end of input it finishes once nothing is in
/// flight.
final class TestHandler: RPCConnectionHandler {
    // Strong on purpose: answers that come after the close must be dropped by the connection.
    private let connection: any RPCConnection
    private let events: TestEvents
    private let inFlightLimit: Int
    private var inFlight = 0
    private var ended = false
    private var paused = false
    private(set) var closed = false

    private unowned let factory: TestHandlerFactory

    init(connection: any RPCConnection, factory: TestHandlerFactory, inFlightLimit: Int) {
        self.connection = connection
        self.factory = factory
        self.events = factory.events
        self.inFlightLimit = inFlightLimit
    }

    func receivedAvailableLines() {
        events.record("lines delivered")
        guard !gathered.isEmpty else { return }
        gathered.withUnsafeBytes { connection.write($0) }
        gathered.removeAll()
    }

    /// Answers of `gather N` lines not written yet.
    private var gathered: [UInt8] = []

    /// Writes its answers at once, except those of `gather N`, which it holds and reports.
    func received(line: UnsafeRawBufferPointer) -> Int {
        let text = String(decoding: line, as: UTF8.self)
        events.record("line")
        if text.hasPrefix("later ") {
            let parts = text.split(separator: " ", maxSplits: 2)
            let delay = Int(parts[1]) ?? 0
            let answer = parts.count > 2 ? String(parts[2]) : ""
            begin()
            let bound = LoopBound(self, loop: connection.loop)
            connection.loop.schedule(after: .milliseconds(delay)) { bound.unwrapped.complete(answer) }
        } else if text.hasPrefix("await ") {
            let parts = text.split(separator: " ", maxSplits: 2)
            let answer = parts.count > 2 ? String(parts[2]) : ""
            begin()
            let bound = LoopBound(self, loop: connection.loop)
            let loop = connection.loop
            factory.park(String(parts[1])) { loop.execute { bound.unwrapped.complete(answer) } }
        } else if text.hasPrefix("offloop ") {
            let answer = String(text.dropFirst(8))
            begin()
            let bound = LoopBound(self, loop: connection.loop)
            let loop = connection.loop
            Thread.detachNewThread {
                loop.execute { bound.unwrapped.complete(answer) }
            }
        } else if text.hasPrefix("big ") {
            let count = Int(text.dropFirst(4)) ?? 0
            write(String(repeating: "x", count: count))
        } else if text.hasPrefix("gather ") {
            let count = Int(text.dropFirst(7)) ?? 0
            gathered.append(contentsOf: repeatElement(UInt8(ascii: "g"), count: count))
            gathered.append(0x0A)
            factory.noteHeld(gathered.count)
            return gathered.count
        } else if text == "hang" {
            begin()
        } else if text == "quit" {
            write("bye")
            connection.finish()
        } else {
            connection.write(line)
            write("")
        }
        return 0
    }

    func receivedOversizedLine(limit: Int) {
        events.record("oversized")
        write("oversized \(limit)")
    }

    func inputEnded() {
        events.record("inputEnded")
        ended = true
        if inFlight == 0 { connection.finish() }
    }

    func connectionClosed() {
        closed = true
        events.record("closed")
    }

    var hasWorkInFlight: Bool { inFlight > 0 }

    private func begin() {
        inFlight += 1
        if inFlightLimit > 0 && inFlight >= inFlightLimit && !paused {
            paused = true
            events.record("paused")
            connection.setReadingPaused(true)
        }
    }

    private func complete(_ answer: String) {
        inFlight -= 1
        if closed { events.record("write after close") }
        write(answer)
        if paused && inFlight < inFlightLimit {
            paused = false
            connection.setReadingPaused(false)
        }
        if ended && inFlight == 0 { connection.finish() }
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { connection.write($0) }
    }
}
