import PayRPCSync

/// The kind of transport a connection arrived on.
public enum TransportKind: String, Sendable {
    case stdio, tcp, unix, memory
}

/// One client connection as the engine sees it; implemented by the libuv transport and by the
/// in-memory transport of the tests.
///
/// Every member is used on the loop thread only. Code elsewhere reaches the connection through
/// ``EventLoop/execute(_:)``.
public protocol RPCConnection: AnyObject {
    /// Unique within the process.
    var id: UInt64 { get }
    /// How the client is connected.
    var transport: TransportKind { get }
    /// The peer's address, for logs (`127.0.0.1:51234`, `unix`, `stdio`).
    var peer: String { get }
    /// The loop that owns this connection.
    var loop: any EventLoop { get }

    /// Appends protocol bytes (complete lines) to the connection's output. Output written during
    /// one loop callback goes out together, in as few writes as possible.
    func write(_ bytes: UnsafeRawBufferPointer)

    /// Stops (`true`) or resumes (`false`) delivering received lines, because the engine has too
    /// many requests of this connection in flight. Lines already received are kept, not lost.
    func setReadingPaused(_ paused: Bool)

    /// Ends the connection once everything written so far has been sent. The handler receives
    /// ``RPCConnectionHandler/connectionClosed()`` afterwards.
    func finish()
}

/// The engine's side of one connection; the transport calls it on the loop thread.
public protocol RPCConnectionHandler: AnyObject {
    /// One complete line, without its `\n` or `\r\n`; never empty or only whitespace. The
    /// bytes are valid only during the call.
    ///
    /// - Returns: How many bytes of answers the handler holds without having written them yet (a
    ///   handler that gathers a read's answers and writes them in ``receivedAvailableLines()``;
    ///   0 for one that writes at once). The connection is the one owner of backpressure: it
    ///   counts them with its own unsent output when it decides whether another line may be
    ///   delivered, and when it stops, it calls ``receivedAvailableLines()``.
    func received(line: UnsafeRawBufferPointer) -> Int

    /// Every line of one read has been delivered through ``received(line:)`` (or reading stopped
    /// part-way): a handler that gathers its answers hands them to the connection now, in one
    /// write instead of one per line. A connection calls it after each run of deliveries.
    func receivedAvailableLines()

    /// A line passed the size limit; the transport discards the rest of it as it arrives.
    func receivedOversizedLine(limit: Int)

    /// The peer will send nothing more (EOF, half-close, or the server is draining). The handler
    /// answers what it has and then calls ``RPCConnection/finish()``.
    func inputEnded()

    /// The connection is gone; pending answers are dropped.
    func connectionClosed()

    /// Whether requests of this connection are still running (an idle timeout must not close it).
    var hasWorkInFlight: Bool { get }
}

/// Makes the handler of each new connection.
public protocol RPCConnectionHandlerFactory: AnyObject {
    /// Called on the loop thread when a connection opens.
    func makeHandler(for connection: any RPCConnection) -> any RPCConnectionHandler
}

/// The thread-safe face of the event loop: how work done elsewhere comes back to the loop.
public protocol EventLoop: AnyObject, Sendable {
    /// Runs `job` on the loop thread soon. Callable from any thread.
    func execute(_ job: @escaping @Sendable () -> Void)

    /// Runs `job` on the loop thread after `delay` (a loop timer; no thread sleeps). Callable from
    /// any thread.
    @discardableResult
    func schedule(after delay: Duration, _ job: @escaping @Sendable () -> Void) -> ScheduledJob

    /// Whether the caller is on the loop thread.
    var inLoopThread: Bool { get }
}

/// A job scheduled on a loop, which can be cancelled until it runs.
public final class ScheduledJob: Sendable {
    private struct State {
        var cancelled = false
        var onCancel: (@Sendable () -> Void)?
    }

    private let state = Lock(State())

    public init() {}

    /// Prevents the job from running, if it has not run yet.
    public func cancel() {
        let action: (@Sendable () -> Void)? = state.withLock { state in
            if state.cancelled { return nil }
            state.cancelled = true
            defer { state.onCancel = nil }
            return state.onCancel
        }
        action?()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Called by the loop implementation: what to do when the job is cancelled (stop the timer).
    public func setCancelAction(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.cancelled { return true }
            state.onCancel = action
            return false
        }
        if runNow { action() }
    }
}

/// A value that belongs to the loop thread but must travel inside a `@Sendable` closure that
/// will run there (through ``EventLoop/execute(_:)``). Unwrap it only on the loop thread.
/// `@unchecked Sendable`: the value crosses threads only to be used on its loop's thread, which debug builds check.
public struct LoopBound<Value>: @unchecked Sendable {
    private let value: Value
    private let loop: any EventLoop

    public init(_ value: Value, loop: any EventLoop) {
        self.value = value
        self.loop = loop
    }

    /// The value; only on the loop thread (checked in debug builds).
    public var unwrapped: Value {
        assert(loop.inLoopThread, "LoopBound value used off the loop thread")
        return value
    }
}
