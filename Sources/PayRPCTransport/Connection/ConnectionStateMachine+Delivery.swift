/// The machine's shared steps: changing the serving state in place, what to deliver next, and
/// bringing reading in line with the state.
extension ConnectionStateMachine {
    /// Runs `body` on the serving state (nil when not serving), without copying held bytes.
    /// `body` gets whether the output is backpressured and the serving state to change (a closure
    /// that captured `self` would overlap this mutating access).
    mutating func updateServing(_ body: (_ backpressured: Bool, inout Serving) -> Step) -> Step? {
        guard case .serving(var serving) = state else { return nil }
        state = .idle  // the held bytes stay uniquely referenced while `body` changes them
        let step = body(backpressured, &serving)
        state = .serving(serving)
        return step
    }

    /// After a delivery or the end of input: go on with held bytes on the next loop turn (after
    /// the output written so far has been flushed), or deliver the end now.
    static func nextDelivery(_ serving: inout Serving, backpressured: Bool) -> Step {
        guard !serving.handlerPaused else { return .none }
        switch serving.input {
        case .holding:
            return backpressured ? .none : Self.scheduleResumeIfWaiting(&serving)
        case .ended(_, let held) where !held.isEmpty:
            return backpressured ? .none : Self.scheduleResumeIfWaiting(&serving)
        case .ended(let end, _):
            serving.input = .endDelivered(end)
            return .deliverEnd(end)
        case .flowing, .endDelivered:
            return .none
        }
    }

    /// ``Step/scheduleResume`` when something waits to be delivered and no resume is queued yet.
    static func scheduleResumeIfWaiting(_ serving: inout Serving) -> Step {
        switch serving.input {
        case .holding, .ended:
            guard !serving.resumeScheduled else { return .none }
            serving.resumeScheduled = true
            return .scheduleResume
        case .flowing, .endDelivered:
            return .none
        }
    }

    /// Whether the input should be reading in the current state.
    var wantsReading: Bool {
        switch state {
        case .serving(let serving):
            guard case .flowing = serving.input else { return false }
            return !serving.handlerPaused && !backpressured
        case .lingering:
            return true
        case .idle, .finishing, .closed:
            return false
        }
    }

    /// `step` with the reading change that brings reading in line with the state. While the owner
    /// delivers, reading is left as it is: the end of the delivery settles it, once.
    mutating func settle(_ step: Step) -> Action {
        if case .serving(let serving) = state, serving.delivering { return Action(reading: .none, step: step) }
        let wanted = wantsReading
        guard wanted != reading else { return Action(reading: .none, step: step) }
        reading = wanted
        return Action(reading: wanted ? .start : .stop, step: step)
    }
}
