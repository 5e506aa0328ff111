import Foundation

/// A thread-safe record of what happened in a server, that a test can wait on with a timeout.
final class TestEvents: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [String] = []

    /// Records `event` and wakes waiters.
    func record(_ event: String) {
        condition.lock()
        events.append(event)
        condition.broadcast()
        condition.unlock()
    }

    /// Everything recorded so far.
    var all: [String] {
        condition.lock()
        defer { condition.unlock() }
        return events
    }

    /// How many events equal `event`.
    func count(_ event: String) -> Int { all.filter { $0 == event }.count }

    /// Waits until `predicate` holds for the events, at most `timeout` seconds.
    @discardableResult
    func wait(timeout: TimeInterval = 10, until predicate: ([String]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(events) {
            if !condition.wait(until: deadline) { return predicate(events) }
        }
        return true
    }

    /// Waits until `event` was recorded at least `times` times.
    @discardableResult
    func wait(for event: String, times: Int = 1, timeout: TimeInterval = 10) -> Bool {
        wait(timeout: timeout) { $0.filter { $0 == event }.count >= times }
    }
}
