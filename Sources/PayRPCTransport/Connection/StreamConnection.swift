import CLibUV
import Logging
import PayRPCCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Told when a connection has closed all its handles.
protocol StreamConnectionOwner: AnyObject {
    func connectionDidClose(_ connection: StreamConnection)
}

/// One client connection on libuv streams: a TCP or Unix socket, or stdin/stdout (pipes, TTYs
/// or regular files).
///
/// Bytes read go through a ``LineFramer`` straight to the handler: a line that lies inside one read
/// is handed over as a pointer into the loop's read buffer. What the handler writes during one
/// callback is collected in an output buffer and sent once at the end of the callback, first with
/// `uv_try_write` and, for what the socket does not take at once, one `[uv_write_t][payload]`
/// allocation that owns its bytes until the write callback. Every member is used on the loop
/// thread only (checked in debug builds).
final class StreamConnection: RPCConnection, LineFramerSink {
    /// Where input comes from (at construction; kept as a ``ConnectionInput``).
    enum Input {
        /// A `uv_stream_t` (TCP, pipe, TTY) read with `uv_read_start`.
        case stream(UnsafeMutableRawPointer)
        /// A regular file (or `/dev/null`) read with chained `uv_fs_read`.
        case file(Int32)
    }

    /// Where output goes.
    enum Output {
        /// A `uv_stream_t` written with `uv_try_write` / `uv_write`.
        case stream(UnsafeMutableRawPointer)
        /// A regular file written with synchronous `uv_fs_write`.
        case file(Int32)
    }

    private static let nextID = Atomic<UInt64>(1)

    let id: UInt64
    let transport: TransportKind
    let peer: String
    var loop: any EventLoop { eventLoop }
    let eventLoop: LibUVEventLoop
    let logger: Logger
    weak var owner: (any StreamConnectionOwner)?

    /// Where bytes come from: a socket, pipe or TTY, or a file.
    let input: any ConnectionInput
    let output: Output
    private let maxLineBytes: Int
    private var handler: (any RPCConnectionHandler)?
    private var framer: LineFramer
    /// Every decision about reading, delivering, backpressure and closing.
    var machine: ConnectionStateMachine
    private var openHandles = 0

    // Output written during the current callback, sent by `flushOutput()`.
    var outBase: UnsafeMutableRawPointer?
    var outCount = 0
    var outCapacity = 0
    var flushScheduled = false
    /// How many times output was flushed (tests check that writes are coalesced).
    var flushCount = 0

    private var lingerTimer: UVTimer?
    /// How long a finished socket waits for the peer's EOF before closing anyway.
    static let lingerMilliseconds: UInt64 = 2000

    /// Creates a connection over handles the caller has initialized; it takes them over (each
    /// handle's `data` holds the connection until its close callback).
    init(
        eventLoop: LibUVEventLoop, input: Input, output: Output, transport: TransportKind, peer: String,
        configuration: TransportConfiguration, logger: Logger
    ) {
        eventLoop.assertInLoopThread()
        self.id = StreamConnection.nextID.add(1, ordering: .relaxed).oldValue
        self.eventLoop = eventLoop
        switch input {
        case .stream(let handle): self.input = StreamInput(handle: handle)
        case .file(let fd): self.input = FileInput(fd: fd, eventLoop: eventLoop)
        }
        self.output = output
        self.transport = transport
        self.peer = peer
        self.maxLineBytes = configuration.maxLineBytes
        // stdin/stdout is never idle: the process serves it until it ends.
        let idleTimeout = transport == .stdio ? nil : configuration.idleTimeout.map { max(1, LibUVEventLoop.milliseconds($0)) }
        self.machine = ConnectionStateMachine(
            highWaterMark: configuration.highWaterMark, lowWaterMark: configuration.lowWaterMark,
            idleTimeout: idleTimeout, lingerTimeout: Self.lingerMilliseconds,
            now: uv_now(eventLoop.uvLoop))
        self.framer = LineFramer(maxLineBytes: configuration.maxLineBytes)
        var logger = logger
        logger[metadataKey: "connection.id"] = "\(id)"
        logger[metadataKey: "transport"] = "\(transport.rawValue)"
        self.logger = logger

        let inputHandle = self.input.streamHandle
        if let inputHandle {
            payrpc_set_handle_data(inputHandle, Unmanaged.passRetained(self).toOpaque())
            openHandles += 1
        }
        if case .stream(let handle) = output, handle != inputHandle {
            payrpc_set_handle_data(handle, Unmanaged.passRetained(self).toOpaque())
            openHandles += 1
        }
    }

    deinit {
        outBase.map { free($0) }
    }

    /// The connection a stream handle belongs to (its `data`), from a libuv callback.
    @inline(__always)
    static func of(handle: UnsafeRawPointer) -> StreamConnection {
        Unmanaged<StreamConnection>.fromOpaque(payrpc_handle_data(handle)).takeUnretainedValue()
    }

    /// Attaches the handler and starts reading.
    func start(handler: any RPCConnectionHandler) {
        eventLoop.assertInLoopThread()
        self.handler = handler
        perform(machine.start())
    }

    // MARK: - RPCConnection

    func write(_ bytes: UnsafeRawBufferPointer) {
        eventLoop.assertInLoopThread()
        guard machine.isServing, let source = bytes.baseAddress, bytes.count > 0 else { return }
        if outCapacity - outCount < bytes.count {
            growOutput(to: outCount + bytes.count)
            guard outCapacity - outCount >= bytes.count else { return }
        }
        (outBase! + outCount).copyMemory(from: source, byteCount: bytes.count)
        outCount += bytes.count
        if !flushScheduled {
            flushScheduled = true
            eventLoop.needsFlush(self)
        }
    }

    func setReadingPaused(_ paused: Bool) {
        eventLoop.assertInLoopThread()
        perform(machine.handlerPaused(paused))
    }

    func finish() {
        eventLoop.assertInLoopThread()
        perform(machine.finish())
    }

    // MARK: - Server side

    /// The server is shutting down: read no more and tell the handler the input ended, so that it
    /// answers what it has read and finishes.
    func drain() {
        eventLoop.assertInLoopThread()
        perform(machine.inputEnded(.drain))
    }

    /// Closes the connection now, dropping unsent output. Idempotent; the handler hears
    /// `connectionClosed()` once every handle has closed.
    func close() {
        eventLoop.assertInLoopThread()
        perform(machine.close())
    }

    /// A timer fired (the server's idle sweep): the machine closes the connection when it has been
    /// idle too long.
    func timeElapsed() {
        eventLoop.assertInLoopThread()
        perform(machine.timeElapsed(now: uv_now(eventLoop.uvLoop), handlerBusy: handler?.hasWorkInFlight ?? false))
    }

    /// Whether reading is currently running (tests).
    var isReading: Bool { machine.reading }
    /// Bytes handed to `uv_write` whose callback has not come yet (tests).
    var queuedBytes: Int { machine.queuedBytes }
    /// The most bytes ever queued at once (tests check that it stays bounded).
    var peakQueuedBytes: Int { machine.peakQueuedBytes }
    /// Reading stopped because the queued output passed the high-water mark (tests).
    var backpressured: Bool { machine.backpressured }

    // MARK: - LineFramerSink

    func framedLine(_ line: UnsafeRawBufferPointer) -> Bool {
        // The handler's gathered answers count with the unsent output: the high-water mark is
        // the one thing that stops delivery (no threshold of the handler's own).
        let held = handler?.received(line: line) ?? 0
        return machine.mayDeliver(unsentOutput: outCount + held)
    }

    func framedOversizedLine() -> Bool {
        logger.notice("line over the size limit discarded", metadata: ["limit": "\(maxLineBytes)"])
        handler?.receivedOversizedLine(limit: maxLineBytes)
        return machine.mayDeliver(unsentOutput: outCount)
    }

    // MARK: - Input

    /// Bytes arrived.
    ///
    /// Never inlined: `scripts/callgrind.sh` counts the instructions spent under this function.
    @inline(never)
    func receive(_ chunk: UnsafeRawBufferPointer) {
        let action = machine.received(chunk, now: uv_now(eventLoop.uvLoop))
        if case .frame = action.step {
            frame(chunk)
        } else {
            perform(action)
        }
    }

    /// The peer sent EOF (or half-closed).
    func inputDidEnd() {
        perform(machine.inputEnded(.eof))
    }

    /// Reading failed (peer reset, ...): the connection is gone.
    func readFailed(_ code: Int32) {
        logger.debug("read failed, closing", metadata: ["error": "\(UVCode.name(code))"])
        close()
    }

    /// Frames `bytes` into the handler and tells the machine where delivery stopped.
    private func frame(_ bytes: UnsafeRawBufferPointer) {
        let consumed = framer.process(bytes, into: self)
        handler?.receivedAvailableLines()
        perform(machine.delivered(remainder: UnsafeRawBufferPointer(rebasing: bytes[consumed...])))
    }

    // MARK: - Performing actions

    /// Does what the machine asked: the reading change, then the step.
    func perform(_ action: ConnectionStateMachine.Action) {
        switch action.reading {
        case .none:
            break
        case .start:
            let code = input.startReading(for: self)
            if code < 0 {
                logger.debug("read start failed, closing", metadata: ["error": "\(UVCode.name(code))"])
                close()
                return
            }
        case .stop:
            input.stopReading()
        }
        switch action.step {
        case .none:
            break
        case .frame:
            preconditionFailure("framing is performed by receive(_:)")
        case .frameHeld(let held):
            held.withUnsafeBytes { frame($0) }
        case .deliverEnd(let end):
            switch end {
            case .eof:
                framer.finish(into: self)
                handler?.receivedAvailableLines()
            case .drain:
                framer.reset()
            }
            guard !machine.isClosed else { return }
            handler?.inputEnded()
        case .scheduleResume:
            let bound = LoopBound(self, loop: eventLoop)
            eventLoop.execute { bound.unwrapped.resume() }
        case .shutdown:
            shutDown()
        case .startLinger:
            let timer = UVTimer(loop: eventLoop) { [unowned self] _ in timeElapsed() }
            timer.start(after: machine.lingerTimeout)
            lingerTimer = timer
        case .close:
            closeHandles()
        case .closeIdle:
            logger.info("closing an idle connection", metadata: ["idle.ms": "\(machine.idleTimeout ?? 0)"])
            closeHandles()
        }
    }

    private func resume() {
        perform(machine.resume())
    }

    func closeHandles() {
        outCount = 0
        lingerTimer?.close()
        lingerTimer = nil
        let inputHandle = input.streamHandle
        input.close()
        switch output {
        case .stream(let handle):
            if handle != inputHandle { uv_close(payrpc_handle(handle), streamHandleClosed) }
        case .file(let fd):
            var request = uv_fs_t()
            uv_fs_close(eventLoop.uvLoop, &request, fd, nil)
            uv_fs_req_cleanup(&request)
        }
        if openHandles == 0 {
            // No handle to wait for (files only): report the close from the next loop turn, not
            // from inside the handler's own call.
            let bound = LoopBound(self, loop: eventLoop)
            eventLoop.execute { bound.unwrapped.didClose() }
        }
    }

    // MARK: - Closing

    fileprivate func handleClosed() {
        openHandles -= 1
        if openHandles == 0 { didClose() }
    }

    private func didClose() {
        if let base = outBase {
            free(base)
            outBase = nil
            outCapacity = 0
        }
        let handler = self.handler
        self.handler = nil
        handler?.connectionClosed()
        owner?.connectionDidClose(self)
    }
}

/// A handle of a connection closed: release the connection's hold and count it down.
func streamHandleClosed(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
    guard let handle else { return }
    let connection = Unmanaged<StreamConnection>.fromOpaque(payrpc_handle_data(handle)).takeRetainedValue()
    free(handle)
    connection.handleClosed()
    connection.eventLoop.flushPendingOutput()
}
