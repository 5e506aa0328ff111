/// The timeouts, decided by the machine on the owner's clock: an idle connection closes after
/// ``idleTimeout`` without traffic, a lingering one after ``lingerTimeout``. The owner only tells
/// the time (`uv_now` in production, any number in tests) when a timer fires.
extension ConnectionStateMachine {
    /// A timer fired at `now` (the server's idle sweep, or the linger timer). `handlerBusy`: the
    /// handler has calls in flight or waiting, which is work, not idleness.
    /// Output that makes no progress counts as no traffic: a peer that stopped reading is idle too.
    mutating func timeElapsed(now: UInt64, handlerBusy: Bool) -> Action {
        switch state {
        case .lingering:
            guard let deadline = lingerDeadline, now >= deadline else { return .none }
            return close()
        case .closed:
            return .none
        case .idle, .serving, .finishing:
            guard let idleTimeout, !handlerBusy, now >= lastActivity, now - lastActivity >= idleTimeout else { return .none }
            state = .closed
            return settle(.closeIdle)
        }
    }
}
