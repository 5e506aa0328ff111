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
    private let output: Output
    private let maxLineBytes: Int
    private var handler: (any RPCConnectionHandler)?
    private var framer: LineFramer
    /// Every decision about reading, delivering, backpressure and closing.
    private var machine: ConnectionStateMachine
    private var openHandles = 0

    // Output written during the current callback, sent by `flushOutput()`.
    private var outBase: UnsafeMutableRawPointer?
    private var outCount = 0
    private var outCapacity = 0
    private var flushScheduled = false
    /// How many times output was flushed (tests check that writes are coalesced).
    private(set) var flushCount = 0

    private var lingerTimer: UVTimer?
    /// How long a finished socket waits for the peer's EOF before closing anyway.
    static let lingerMilliseconds: UInt64 = 2000
    private(set) var lastActivity: UInt64

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
        self.machine = ConnectionStateMachine(highWaterMark: configuration.highWaterMark, lowWaterMark: configuration.lowWaterMark)
        self.framer = LineFramer(maxLineBytes: configuration.maxLineBytes)
        self.lastActivity = uv_now(eventLoop.uvLoop)
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

    /// Whether the idle timeout may close this connection.
    /// Output that makes no progress counts as no traffic: a peer that stopped reading is idle too.
    func isIdle(now: UInt64, timeoutMilliseconds: UInt64) -> Bool {
        guard !machine.isClosed, !machine.isLingering else { return false }
        if handler?.hasWorkInFlight ?? false { return false }
        return now >= lastActivity && now - lastActivity >= timeoutMilliseconds
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
        lastActivity = uv_now(eventLoop.uvLoop)
        let action = machine.received(chunk)
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
    private func perform(_ action: ConnectionStateMachine.Action) {
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
            let timer = UVTimer(loop: eventLoop) { [unowned self] _ in close() }
            timer.start(after: StreamConnection.lingerMilliseconds)
            lingerTimer = timer
        case .close:
            closeHandles()
        }
    }

    private func resume() {
        perform(machine.resume())
    }

    /// Flushes what was written and shuts the output down; a file output just closes.
    private func shutDown() {
        flushOutput()
        guard !machine.isClosed else { return }
        switch output {
        case .stream(let handle):
            let request = UnsafeMutablePointer<uv_shutdown_t>.allocate(capacity: 1)
            let code = uv_shutdown(request, payrpc_stream(handle), shutdownCallback)
            if code < 0 {
                request.deallocate()
                logger.debug("shutdown failed, closing", metadata: ["error": "\(UVCode.name(code))"])
                close()
            }
        case .file:
            close()
        }
    }

    private func closeHandles() {
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

    // MARK: - Output

    private func growOutput(to needed: Int) {
        var capacity = max(outCapacity * 2, 16 * 1024)
        while capacity < needed { capacity *= 2 }
        guard let grown = realloc(outBase, capacity) else {
            logger.error("out of memory for output, closing", metadata: ["bytes": "\(capacity)"])
            close()
            return
        }
        outBase = grown
        outCapacity = capacity
    }

    /// Sends what was written since the last flush.
    func flushOutput() {
        flushScheduled = false
        guard outCount > 0, let base = outBase else { return }
        guard !machine.isClosed else {
            outCount = 0
            return
        }
        flushCount &+= 1
        var queued = 0
        switch output {
        case .stream(let handle):
            let stream = payrpc_stream(handle)
            var offset = 0
            if machine.queuedBytes == 0 {
                var buf = uv_buf_init(base.assumingMemoryBound(to: CChar.self), UInt32(outCount))
                let written = uv_try_write(stream, &buf, 1)
                if written >= 0 {
                    offset = Int(written)
                } else if written != UVCode.again {
                    logger.debug("write failed, closing", metadata: ["error": "\(UVCode.name(written))"])
                    close()
                    return
                }
            }
            let remaining = outCount - offset
            outCount = 0
            if remaining > 0 {
                guard let request = payrpc_write_request_alloc(remaining) else {
                    logger.error("out of memory for a write, closing", metadata: ["bytes": "\(remaining)"])
                    close()
                    return
                }
                let payload = payrpc_write_request_payload(request)!
                UnsafeMutableRawPointer(payload).copyMemory(from: base + offset, byteCount: remaining)
                var buf = uv_buf_init(payload, UInt32(remaining))
                let code = uv_write(request, stream, &buf, 1, writeCallback)
                if code < 0 {
                    free(request)
                    logger.debug("write failed, closing", metadata: ["error": "\(UVCode.name(code))"])
                    close()
                    return
                }
                queued = remaining
            } else {
                lastActivity = uv_now(eventLoop.uvLoop)
            }
        case .file(let fd):
            var offset = 0
            while offset < outCount {
                var request = uv_fs_t()
                var buf = uv_buf_init((base + offset).assumingMemoryBound(to: CChar.self), UInt32(outCount - offset))
                let written = uv_fs_write(eventLoop.uvLoop, &request, fd, &buf, 1, -1, nil)
                uv_fs_req_cleanup(&request)
                if written <= 0 {
                    logger.error("writing the output file failed, closing", metadata: ["error": "\(UVCode.name(Int32(written)))"])
                    outCount = 0
                    close()
                    return
                }
                offset += Int(written)
            }
            outCount = 0
        }
        if outCapacity > 1 << 20 {
            // A burst grew the buffer; give the memory back.
            free(outBase)
            outBase = nil
            outCapacity = 0
        }
        let wasBackpressured = machine.backpressured
        perform(machine.flushed(queued: queued))
        if machine.backpressured && !wasBackpressured {
            logger.debug("output over the high-water mark, reading paused", metadata: ["queued": "\(machine.queuedBytes)"])
        }
    }

    fileprivate func didWrite(_ length: Int, status: Int32) {
        if status >= 0 { lastActivity = uv_now(eventLoop.uvLoop) }
        let failed = status < 0 && status != UVCode.cancelled
        if failed, !machine.isClosed {
            logger.debug("write failed, closing", metadata: ["error": "\(UVCode.name(status))"])
        }
        perform(machine.writeCompleted(length: length, failed: failed))
    }

    fileprivate func shutdownCompleted(_ status: Int32) {
        if status < 0 && status != UVCode.cancelled {
            logger.debug("shutdown reported an error", metadata: ["error": "\(UVCode.name(status))"])
        }
        let mayLinger = (transport == .tcp || transport == .unix) && input.streamHandle != nil
        perform(machine.shutdownCompleted(succeeded: status == 0, mayLinger: mayLinger))
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

private func writeCallback(_ request: UnsafeMutablePointer<uv_write_t>?, _ status: Int32) {
    guard let request else { return }
    let length = payrpc_write_request_length(request)
    let stream = payrpc_write_request_stream(request)!
    free(request)
    let connection = StreamConnection.of(handle: stream)
    connection.didWrite(length, status: status)
    connection.eventLoop.flushPendingOutput()
}

private func shutdownCallback(_ request: UnsafeMutablePointer<uv_shutdown_t>?, _ status: Int32) {
    guard let request else { return }
    let stream = payrpc_shutdown_request_stream(request)!
    request.deallocate()
    StreamConnection.of(handle: stream).shutdownCompleted(status)
}

/// A handle of a connection closed: release the connection's hold and count it down.
func streamHandleClosed(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
    guard let handle else { return }
    let connection = Unmanaged<StreamConnection>.fromOpaque(payrpc_handle_data(handle)).takeRetainedValue()
    free(handle)
    connection.handleClosed()
    connection.eventLoop.flushPendingOutput()
}
