import CLibPQ
import Foundation
import Logging
import PayRPCSync
import PayRPCStore

/// A store instance's one long-lived connection, on a thread of its own: its presence (an
/// advisory lock that says "this instance is alive", which ``PGPresence`` checks), its `LISTEN`s,
/// and the notifications they bring, handed to the handlers of their channel.
///
/// NOTIFY has no replay: a listener that was not connected misses what was sent meanwhile. So
/// after every (re)connection the listener runs its catch-up handlers on its own connection
/// before it reads anything new (the event outbox is read by sequence there). While the server is
/// unreachable it tries again twice a second. The thread waits in `poll(2)` on its socket and a
/// wake-up pipe, so stopping it, adding a channel or asking for an earlier wake-up is immediate.
final class PGListener: Sendable {
    /// What the thread and its callers share.
    private struct State {
        var handlers: [String: [@Sendable (String) -> Void]] = [:]
        var listened: Set<String> = []
        var catchUps: [@Sendable (PGConnection) -> Void] = []
        /// When the next tick is due (milliseconds since 1970); nil: none.
        var tickAt: Int64?
        var ticks: [@Sendable (PGConnection) -> Int64?] = []
        var stopped = false
        var connected = false
    }

    /// The instance's identifier: the advisory lock it holds, the owner of its idempotency claims.
    let instanceID: Int32
    private let target: PostgresURL
    private let applicationName: String
    private let logger: Logger
    private let state = Lock(State())
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)
    /// The thread's connection (touched only on the thread).
    private let connection = LockedValue<PGConnection?>(nil)

    /// Connects, takes the instance's presence lock under a fresh identifier, and starts the
    /// thread.
    /// - Throws: ``StoreError`` `unavailable` when the server cannot be reached.
    init(target: PostgresURL, applicationName: String, logger: Logger) throws(StoreError) {
        self.target = target
        self.applicationName = applicationName
        self.logger = logger
        let first = try PGConnection(target, applicationName: applicationName)
        var chosen: Int32?
        for _ in 0..<8 {
            let candidate = Int32.random(in: 1...Int32.max)
            if try first.execute("SELECT pg_try_advisory_lock(\(PGPresence.lockSpace), \(candidate))").scalar == "t" {
                chosen = candidate
                break
            }
        }
        guard let chosen else { throw StoreError(.database, "cannot take an instance lock on \(target.redacted)") }
        instanceID = chosen
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw StoreError(.database, "cannot make the listener's wake-up pipe") }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        wakeRead = fds[0]
        wakeWrite = fds[1]
        connection.value = first
        state.withLock { $0.connected = true }
        let thread = Thread { [self] in run() }
        thread.name = "payrpc.postgres.listener"
        thread.start()
    }

    /// Calls `handler` with the payload of every notification on `channel` (on the listener's
    /// thread: it must be quick).
    func listen(_ channel: String, _ handler: @escaping @Sendable (String) -> Void) {
        state.withLock { $0.handlers[channel, default: []].append(handler) }
        wake()
    }

    /// Runs `handler` with the listener's connection after every reconnection (and once now, on
    /// the thread), before any notification that arrives after it is handled.
    func onConnect(_ handler: @escaping @Sendable (PGConnection) -> Void) {
        state.withLock { $0.catchUps.append(handler) }
        perform(handler)
    }

    /// Runs `tick` on the listener's thread at once and then whenever the time it returns
    /// (milliseconds since 1970) comes, or ``wakeForTicks(at:)`` asks; nil: until asked.
    func onTick(_ tick: @escaping @Sendable (PGConnection) -> Int64?) {
        state.withLock { state in
            state.ticks.append(tick)
            state.tickAt = 0
        }
        wake()
    }

    /// Makes the ticks run at `time` (milliseconds since 1970) if that is earlier than planned.
    func wakeForTicks(at time: Int64) {
        let earlier = state.withLock { state -> Bool in
            guard state.tickAt.map({ time < $0 }) ?? true else { return false }
            state.tickAt = time
            return true
        }
        if earlier { wake() }
    }

    /// Whether the listener is connected now.
    var isConnected: Bool { state.withLock { $0.connected } }

    /// Stops the thread and closes its connection (which releases the presence lock).
    func stop() {
        let wasRunning = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard wasRunning else { return }
        wake()
        finished.wait()
        close(wakeRead)
        close(wakeWrite)
    }

    // MARK: The thread

    private let pendingOnThread = Lock<[@Sendable (PGConnection) -> Void]>([])

    /// Runs `work` once with the listener's connection, on its thread, as soon as it is connected.
    func perform(_ work: @escaping @Sendable (PGConnection) -> Void) {
        pendingOnThread.withLock { $0.append(work) }
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func run() {
        defer {
            connection.value = nil
            finished.signal()
        }
        var retryAt: Int64 = 0
        while !state.withLock({ $0.stopped }) {
            guard let current = connection.value, !current.isBroken else {
                disconnected()
                let now = Self.milliseconds()
                if now >= retryAt, reconnect() { continue }
                if now >= retryAt { retryAt = now + 500 }
                waitForWake(timeout: Int32(max(1, retryAt - now)))
                continue
            }
            do {
                try listenToNewChannels(current)
                for work in pendingOnThread.withLock({ pending in
                    defer { pending.removeAll() }
                    return pending
                }) {
                    work(current)
                }
                runDueTicks(current)
                for (channel, payload) in try current.notifications() { dispatch(channel, payload) }
                var fds = [
                    pollfd(fd: current.socket, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                ]
                _ = poll(&fds, 2, tickTimeout())
                drainWake()
            } catch {
                connection.value = nil
            }
        }
    }

    private func disconnected() {
        let was = state.withLock { state -> Bool in
            defer {
                state.connected = false
                state.listened = []
            }
            return state.connected
        }
        if was {
            logger.warning(
                "store: the PostgreSQL listener lost its connection; reconnecting",
                metadata: [
                    "store.url": .string(target.redacted)
                ])
        }
    }

    /// Connects again, takes the presence lock again and runs the catch-ups. False when the
    /// server cannot be reached yet.
    private func reconnect() -> Bool {
        do {
            let fresh = try PGConnection(target, applicationName: applicationName)
            guard try fresh.execute("SELECT pg_try_advisory_lock(\(PGPresence.lockSpace), \(instanceID))").scalar == "t" else {
                return false
            }
            try listenToNewChannels(fresh)
            connection.value = fresh
            let catchUps = state.withLock { state -> [@Sendable (PGConnection) -> Void] in
                state.connected = true
                state.tickAt = 0
                return state.catchUps
            }
            logger.notice("store: the PostgreSQL listener reconnected", metadata: ["store.url": .string(target.redacted)])
            for catchUp in catchUps { catchUp(fresh) }
            return true
        } catch {
            return false
        }
    }

    private func listenToNewChannels(_ connection: PGConnection) throws(StoreError) {
        let channels = state.withLock { state -> [String] in
            let new = state.handlers.keys.filter { !state.listened.contains($0) }.sorted()
            state.listened.formUnion(new)
            return new
        }
        for channel in channels { try connection.execute("LISTEN \(PGListener.identifier(channel))") }
    }

    private func dispatch(_ channel: String, _ payload: String) {
        let handlers = state.withLock { $0.handlers[channel] ?? [] }
        for handler in handlers { handler(payload) }
    }

    private func runDueTicks(_ connection: PGConnection) {
        let ticks = state.withLock { state -> [@Sendable (PGConnection) -> Int64?] in
            guard let due = state.tickAt, due <= Self.milliseconds() else { return [] }
            state.tickAt = nil
            return state.ticks
        }
        guard !ticks.isEmpty else { return }
        let next = ticks.compactMap { $0(connection) }.min()
        if let next { wakeForTicks(at: next) }
    }

    private func tickTimeout() -> Int32 {
        guard let due = state.withLock({ $0.tickAt }) else { return -1 }
        return Int32(clamping: max(0, due - Self.milliseconds()))
    }

    private func waitForWake(timeout: Int32) {
        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 1, timeout)
        drainWake()
    }

    private func drainWake() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    /// A channel name as an SQL identifier (double-quoted).
    static func identifier(_ channel: String) -> String {
        "\"" + channel.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func milliseconds() -> Int64 {
        Int64(Date().timeIntervalSince1970 * 1000)
    }
}

/// Which store instances are alive: each holds `pg_advisory_lock(lockSpace, instanceID)` on its
/// listener's connection for as long as it runs; the server releases it when that connection
/// ends, also when the process is killed.
enum PGPresence {
    /// The first key of every payrpc advisory lock ('payr').
    static let lockSpace: Int32 = 0x7061_7972
}
