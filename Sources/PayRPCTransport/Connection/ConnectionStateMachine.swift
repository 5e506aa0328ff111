/// The protocol logic of one ``StreamConnection``, as a value with no I/O: events in, actions out.
///
/// The connection (the owner) recovers itself in a libuv callback, tells the machine what
/// happened, and performs the action it returns: start or stop reading, frame bytes, deliver the
/// end of the input, shut down, linger, close (the pattern of swift-nio's `PendingWritesState` and
/// its manager). The machine decides everything that used to hang on a row of flags: whether to
/// read, when held-back input is framed, when the handler hears the end of the input, when a
/// finished socket lingers, and, as the one owner of backpressure, whether another line may be
/// delivered given the output not yet sent (``mayDeliver(unsentOutput:)``).
///
/// It never calls the handler: framing runs in the owner (the handler may call back into the
/// connection while it handles a line, which a `mutating` method could not allow).
struct ConnectionStateMachine {
    /// Why no more input will be read.
    enum InputEnd: Equatable, Sendable {
        /// The peer sent EOF: a last line without a terminator is still a line.
        case eof
        /// The server is draining: an incomplete last line is dropped.
        case drain
    }

    /// The input while the connection serves.
    enum Input: Equatable {
        /// Nothing held back: bytes are framed as they arrive.
        case flowing
        /// Bytes received but not framed yet, because the handler paused or the output was full;
        /// nothing more is read until they are framed.
        case holding([UInt8])
        /// Nothing more will be read; the held bytes, then the end, are still to be delivered.
        case ended(InputEnd, held: [UInt8])
        /// The handler heard the end of the input; it finishes when its answers are written.
        case endDelivered(InputEnd)
    }

    /// A serving connection's input and delivery.
    struct Serving: Equatable {
        var input: Input = .flowing
        /// The handler asked for no more lines (too many requests in flight).
        var handlerPaused = false
        /// The owner is framing bytes into the handler now.
        var delivering = false
        /// A resume (``ConnectionStateMachine/resume()``) is queued on the loop.
        var resumeScheduled = false
    }

    /// Where the connection is in its life.
    enum State: Equatable {
        /// Created; no handler yet.
        case idle
        /// Reading lines and writing answers.
        case serving(Serving)
        /// The handler finished: the output is flushed and a shutdown is in flight. `peerEnded`:
        /// the peer had sent EOF, so there is nothing to linger for.
        case finishing(peerEnded: Bool)
        /// Shut down; reading and discarding until the peer's EOF (or a timeout), because closing
        /// a socket with unread input resets it and could destroy the last answers in flight.
        case lingering
        /// Closing or closed: the handles are being closed.
        case closed
    }

    /// A change to libuv reading that an event asks for.
    enum ReadingChange: Equatable {
        case none, start, stop
    }

    /// What the owner does after an event, besides the reading change.
    enum Step: Equatable {
        case none
        /// Frame the bytes just received into the handler, then report ``ConnectionStateMachine/delivered(remainder:)``.
        case frame
        /// Frame these held-back bytes, then report ``ConnectionStateMachine/delivered(remainder:)``.
        case frameHeld([UInt8])
        /// Tell the handler the input ended (after framing a last unterminated line at EOF).
        case deliverEnd(InputEnd)
        /// Queue ``ConnectionStateMachine/resume()`` on the loop, after this callback's output is flushed.
        case scheduleResume
        /// Flush the output and shut the output down (close when it cannot be).
        case shutdown
        /// Start a timer for ``ConnectionStateMachine/lingerTimeout`` (reading has been started to
        /// discard input), then report ``ConnectionStateMachine/timeElapsed(now:handlerBusy:)``.
        case startLinger
        /// Close the connection.
        case close
        /// Close the connection: it was idle for ``ConnectionStateMachine/idleTimeout``.
        case closeIdle
    }

    /// What the owner performs: first the reading change, then the step.
    struct Action: Equatable {
        var reading: ReadingChange
        var step: Step

        static let none = Action(reading: .none, step: .none)
    }

    /// Unsent output above which no more lines are delivered and reading stops; reading resumes
    /// once the output queued in libuv is back at ``lowWaterMark``.
    let highWaterMark: Int
    /// See ``highWaterMark``.
    let lowWaterMark: Int
    /// How long, in milliseconds of the owner's clock, a connection may pass without traffic
    /// before it is closed (nil: never; stdio never is).
    let idleTimeout: UInt64?
    /// How long a finished socket waits for its peer's EOF before closing anyway, in milliseconds.
    let lingerTimeout: UInt64

    // Set in this file and its extensions (`+Delivery`, `+Time`) only.
    var state: State = .idle
    /// Whether the owner's input is reading (as the machine last told it).
    var reading = false
    /// Bytes handed to `uv_write` whose callback has not come yet.
    var queuedBytes = 0
    /// The most bytes ever queued at once (tests check that it stays bounded).
    var peakQueuedBytes = 0
    /// Reading stopped because ``queuedBytes`` passed the high-water mark.
    var backpressured = false
    /// When traffic last moved (bytes read, output taken by the socket), on the owner's clock.
    var lastActivity: UInt64
    /// When a lingering socket closes anyway, on the owner's clock.
    var lingerDeadline: UInt64?

    /// Creates a machine in ``State/idle`` with the given water marks (the low one is clamped
    /// into `0...highWaterMark`) and timeouts, at `now` on the owner's clock (milliseconds).
    init(highWaterMark: Int, lowWaterMark: Int, idleTimeout: UInt64? = nil, lingerTimeout: UInt64 = 2000, now: UInt64 = 0) {
        self.highWaterMark = max(1, highWaterMark)
        self.lowWaterMark = min(max(0, lowWaterMark), self.highWaterMark)
        self.idleTimeout = idleTimeout
        self.lingerTimeout = lingerTimeout
        self.lastActivity = now
    }

    // MARK: - Queries

    /// Whether another line may be handed to the handler now, given `unsentOutput` bytes written
    /// but not flushed yet. The one place backpressure is decided: one read can hold a thousand
    /// requests whose answers are large, so delivery stops as soon as the output passes the
    /// high-water mark, and the rest of the read is held until it drains.
    @inline(__always)
    func mayDeliver(unsentOutput: Int) -> Bool {
        guard case .serving(let serving) = state else { return false }
        return !serving.handlerPaused && !backpressured && queuedBytes + unsentOutput <= highWaterMark
    }

    /// Whether the connection serves (output is accepted).
    var isServing: Bool {
        if case .serving = state { return true }
        return false
    }

    /// Whether the connection is closing or closed.
    var isClosed: Bool { state == .closed }

    /// Whether a finished socket is waiting for its peer's EOF.
    var isLingering: Bool { state == .lingering }

    // MARK: - Events

    /// The handler is attached: start reading.
    mutating func start() -> Action {
        guard case .idle = state else { return .none }
        state = .serving(Serving())
        return settle(.none)
    }

    /// Bytes arrived at `now`. Held (copied) here when they cannot be framed now.
    mutating func received(_ chunk: UnsafeRawBufferPointer, now: UInt64) -> Action {
        lastActivity = now
        // The common case first (nothing held, nothing paused): no held bytes to keep unique.
        if case .serving(var serving) = state, case .flowing = serving.input,
            !serving.handlerPaused, !backpressured, !serving.delivering
        {
            serving.delivering = true
            state = .serving(serving)
            return Action(reading: .none, step: .frame)
        }
        let step = updateServing { backpressured, serving -> Step in
            switch serving.input {
            case .flowing where !serving.handlerPaused && !backpressured && !serving.delivering:
                serving.delivering = true
                return .frame
            case .flowing:
                serving.input = .holding(Array(chunk))
            case .holding(var held):
                serving.input = .flowing
                held.append(contentsOf: chunk)
                serving.input = .holding(held)
            case .ended, .endDelivered:
                break
            }
            return .none
        }
        return settle(step ?? .none)
    }

    /// The owner framed what ``Step/frame`` or ``Step/frameHeld(_:)`` gave it; `remainder` is
    /// what the framer did not consume (delivery stopped part-way), held until it can go on.
    mutating func delivered(remainder: UnsafeRawBufferPointer) -> Action {
        // The common case first: the whole read was framed and nothing is held.
        if remainder.count == 0, case .serving(var serving) = state, case .flowing = serving.input {
            serving.delivering = false
            state = .serving(serving)
            return settle(.none)
        }
        let step = updateServing { backpressured, serving -> Step in
            serving.delivering = false
            if remainder.count > 0 {
                switch serving.input {
                case .flowing:
                    serving.input = .holding(Array(remainder))
                case .holding(let held):
                    serving.input = .holding(Array(remainder) + held)
                case .ended(let end, let held):
                    serving.input = .ended(end, held: Array(remainder) + held)
                case .endDelivered:
                    break
                }
            }
            return Self.nextDelivery(&serving, backpressured: backpressured)
        }
        return settle(step ?? .none)
    }

    /// The handler paused (`true`) or resumed (`false`) delivery.
    mutating func handlerPaused(_ paused: Bool) -> Action {
        let step = updateServing { backpressured, serving -> Step in
            guard serving.handlerPaused != paused else { return .none }
            serving.handlerPaused = paused
            guard !paused, !serving.delivering else { return .none }
            return Self.scheduleResumeIfWaiting(&serving)
        }
        return settle(step ?? .none)
    }

    /// The resume queued by ``Step/scheduleResume`` runs: frame what was held, or deliver the end.
    mutating func resume() -> Action {
        let step = updateServing { backpressured, serving -> Step in
            serving.resumeScheduled = false
            guard !serving.handlerPaused, !backpressured, !serving.delivering else { return .none }
            switch serving.input {
            case .holding(let held):
                serving.input = .flowing
                serving.delivering = true
                return .frameHeld(held)
            case .ended(let end, let held) where !held.isEmpty:
                serving.input = .ended(end, held: [])
                serving.delivering = true
                return .frameHeld(held)
            case .ended(let end, _):
                serving.input = .endDelivered(end)
                return .deliverEnd(end)
            case .flowing, .endDelivered:
                return .none
            }
        }
        return settle(step ?? .none)
    }

    /// No more input: the peer's EOF (``InputEnd/eof``) or the server drains (``InputEnd/drain``).
    mutating func inputEnded(_ end: InputEnd) -> Action {
        switch state {
        case .lingering:
            return end == .eof ? close() : .none
        case .finishing where end == .eof:
            // Nothing to linger for any more.
            state = .finishing(peerEnded: true)
            return .none
        default:
            break
        }
        let step = updateServing { backpressured, serving -> Step in
            switch serving.input {
            case .flowing:
                serving.input = .ended(end, held: [])
            case .holding(let held):
                serving.input = .ended(end, held: held)
            case .ended, .endDelivered:
                return .none
            }
            guard !serving.delivering else { return .none }
            return Self.nextDelivery(&serving, backpressured: backpressured)
        }
        return settle(step ?? .none)
    }

    /// The owner flushed its output at `now`; `queued` bytes of it went to `uv_write` (0: the
    /// socket took everything at once, which is traffic).
    mutating func flushed(queued: Int, now: UInt64) -> Action {
        if queued == 0 { lastActivity = now }
        queuedBytes += queued
        peakQueuedBytes = max(peakQueuedBytes, queuedBytes)
        if queuedBytes > highWaterMark { backpressured = true }
        // Lines held back because the output was large went out at once (a fast reader): go on.
        let step = updateServing { backpressured, serving -> Step in
            guard !backpressured, !serving.handlerPaused, !serving.delivering else { return .none }
            switch serving.input {
            case .holding:
                return Self.scheduleResumeIfWaiting(&serving)
            case .ended(_, let held) where !held.isEmpty:
                return Self.scheduleResumeIfWaiting(&serving)
            case .flowing, .ended, .endDelivered:
                return .none
            }
        }
        return settle(step ?? .none)
    }

    /// A `uv_write` of `length` bytes completed at `now`; `failed`: with an error other than
    /// cancellation.
    mutating func writeCompleted(length: Int, failed: Bool, now: UInt64) -> Action {
        queuedBytes -= length
        if failed { return close() }
        lastActivity = now
        guard backpressured, queuedBytes <= lowWaterMark else { return .none }
        backpressured = false
        let step = updateServing { backpressured, serving -> Step in
            guard !serving.handlerPaused, !serving.delivering else { return .none }
            return Self.scheduleResumeIfWaiting(&serving)
        }
        return settle(step ?? .none)
    }

    /// The handler finished: stop reading, flush, shut down.
    mutating func finish() -> Action {
        let peerEnded: Bool
        switch state {
        case .idle:
            peerEnded = false
        case .serving(let serving):
            switch serving.input {
            case .ended(.eof, _), .endDelivered(.eof): peerEnded = true
            default: peerEnded = false
            }
        case .finishing, .lingering, .closed:
            return .none
        }
        state = .finishing(peerEnded: peerEnded)
        return settle(.shutdown)
    }

    /// The shutdown completed at `now`. `mayLinger`: the input is a socket that can read on (TCP,
    /// Unix); it lingers until its peer's EOF, or ``lingerTimeout`` after `now`.
    mutating func shutdownCompleted(succeeded: Bool, mayLinger: Bool, now: UInt64) -> Action {
        guard case .finishing(let peerEnded) = state else { return .none }
        guard succeeded, !peerEnded, mayLinger else { return close() }
        state = .lingering
        lingerDeadline = now + lingerTimeout
        return settle(.startLinger)
    }

    /// Close now (a read or write failed, the linger timer fired, the server forces it).
    mutating func close() -> Action {
        guard state != .closed else { return .none }
        state = .closed
        return settle(.close)
    }
}
