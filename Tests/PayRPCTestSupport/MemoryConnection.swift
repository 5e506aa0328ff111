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
            line.withUnsafeBytes { _ = handler?.received(line: $0) }
            handler?.receivedAvailableLines()
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
        line.withUnsafeBytes { _ = handler?.received(line: $0) }
        handler?.receivedAvailableLines()
    }
}

/// The lines a connection wrote, awaited by the test (without blocking a thread of the
/// cooperative pool, which the engine's task handlers need).
final class LineSink: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var closed = false
    private var pauses = 0
    private var waiters: [UInt64: Waiter] = [:]
    private var nextWaiter: UInt64 = 0
    private var expired: Set<UInt64> = []

    struct Waiter {
        let matches: @Sendable (String) -> Bool
        let continuation: CheckedContinuation<String?, Never>
    }

    func append(_ line: String) {
        lock.lock()
        // Waiters already looked at the older lines: only the new one can satisfy them.
        if let key = waiters.keys.sorted().first(where: { waiters[$0]!.matches(line) }) {
            let waiter = waiters.removeValue(forKey: key)!
            lock.unlock()
            waiter.continuation.resume(returning: line)
            return
        }
        lines.append(line)
        lock.unlock()
    }

    /// Matches waiting takers with lines; call with the lock held.
    private func resolveWaiters() -> [(CheckedContinuation<String?, Never>, String?)] {
        var ready: [(CheckedContinuation<String?, Never>, String?)] = []
        for (key, waiter) in waiters.sorted(by: { $0.key < $1.key }) {
            if let index = lines.firstIndex(where: waiter.matches) {
                ready.append((waiter.continuation, lines.remove(at: index)))
                waiters.removeValue(forKey: key)
            } else if closed {
                ready.append((waiter.continuation, nil))
                waiters.removeValue(forKey: key)
            }
        }
        return ready
    }

    func recordPause(_ paused: Bool) {
        lock.lock()
        if paused { pauses += 1 }
        lock.unlock()
    }

    var pauseCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return pauses
    }

    func close() {
        lock.lock()
        closed = true
        let ready = resolveWaiters()
        lock.unlock()
        for (continuation, value) in ready { continuation.resume(returning: value) }
    }

    var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return closed
    }

    /// Removes and returns the first line that matches, waiting up to `timeout`.
    func take(timeout: Duration, where matches: @escaping @Sendable (String) -> Bool) async -> String? {
        switch takeNow(matches) {
        case .found(let line): return line
        case .closed: return nil
        case .wait(let key):
            let timer = Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.expire(key)
            }
            defer { timer.cancel() }
            return await withCheckedContinuation { continuation in
                register(key, matches, continuation)
            }
        }
    }

    private enum Attempt {
        case found(String)
        case closed
        case wait(UInt64)
    }

    private func takeNow(_ matches: (String) -> Bool) -> Attempt {
        lock.lock()
        defer { lock.unlock() }
        if let index = lines.firstIndex(where: matches) { return .found(lines.remove(at: index)) }
        if closed { return .closed }
        nextWaiter += 1
        return .wait(nextWaiter)
    }

    private func register(
        _ key: UInt64, _ matches: @escaping @Sendable (String) -> Bool,
        _ continuation: CheckedContinuation<String?, Never>
    ) {
        lock.lock()
        if let index = lines.firstIndex(where: matches) {
            let line = lines.remove(at: index)
            lock.unlock()
            continuation.resume(returning: line)
        } else if closed || expired.remove(key) != nil {
            lock.unlock()
            continuation.resume(returning: nil)
        } else {
            waiters[key] = Waiter(matches: matches, continuation: continuation)
            lock.unlock()
        }
    }

    private func expire(_ key: UInt64) {
        lock.lock()
        let waiter = waiters.removeValue(forKey: key)
        if waiter == nil { expired.insert(key) }
        lock.unlock()
        waiter?.continuation.resume(returning: nil)
    }

    /// Every line received so far, leaving them in place.
    var snapshot: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}
