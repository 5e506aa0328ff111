import PayRPCSync

/// A one-shot wake-up a task can wait for, with a deadline: fired before the wait, the wait returns
/// at once. What the journal's waits and its flusher sleep on (no polling).
final class CallSignal: Sendable {
    private struct State {
        var fired = false
        var continuation: CheckedContinuation<Void, Never>?
    }

    private let state = Lock(State())

    /// Wakes the waiter (or, when none waits, the next wait, at once).
    func fire() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let continuation = state.continuation else {
                state.fired = true
                return nil
            }
            state.continuation = nil
            return continuation
        }
        continuation?.resume()
    }

    /// Waits until fired (then re-arms), or until `timeout` passed or the task is cancelled.
    /// - Returns: whether it was fired.
    func wait(atMost timeout: Duration) async -> Bool {
        let fired = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.waitFired() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        return fired
    }

    private func waitFired() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    // A fire is taken once: by this wait, or by the next.
                    if state.fired {
                        state.fired = false
                        return true
                    }
                    state.continuation = continuation
                    return false
                }
                if now { continuation.resume() }
            }
            return !Task.isCancelled
        } onCancel: {
            fire()
        }
    }
}
