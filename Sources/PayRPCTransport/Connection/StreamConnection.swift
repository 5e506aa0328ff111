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
    /// Where input comes from.
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

    private let input: Input
    private let output: Output
    private let maxLineBytes: Int
    private let highWaterMark: Int
    private let lowWaterMark: Int
    private var handler: (any RPCConnectionHandler)?
    private var framer: LineFramer
    private var openHandles = 0

    // Input state.
    private var started = false
    private var reading = false
    private var handlerPaused = false
    private var delivering = false
    private var resumeScheduled = false
    /// No more input will be read: EOF, or the server is draining.
    private var inputEnded = false
    /// The end was a real EOF (a last unterminated line is a line), not a drain.
    private var inputEndIsEOF = false
    private var inputEndDelivered = false
    /// Received bytes not yet framed because the handler paused reading.
    private var pendingInput: [UInt8] = []

    // Regular-file input.
    private var fileRequest: UnsafeMutablePointer<uv_fs_t>?
    private var fileBuffer: UnsafeMutableRawPointer?
    private var fileReadInFlight = false
    private var fileInputClosed = false

    // Output state.
    private var outBase: UnsafeMutableRawPointer?
    private var outCount = 0
    private var outCapacity = 0
    private var flushScheduled = false
    /// Bytes handed to `uv_write` whose callback has not come yet.
    private(set) var queuedBytes = 0
    /// Reading stopped because `queuedBytes` passed the high-water mark.
    private(set) var backpressured = false
    /// The most bytes ever queued at once (tests check that it stays bounded).
    private(set) var peakQueuedBytes = 0
    /// How many times output was flushed (tests check that writes are coalesced).
    private(set) var flushCount = 0

    private(set) var finishing = false
    private(set) var closing = false
    /// Finished, output flushed and shut down, and discarding input until the peer's EOF: closing a
    /// socket with unread input would reset it and could destroy the last answers in flight.
    private(set) var lingering = false
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
        self.input = input
        self.output = output
        self.transport = transport
        self.peer = peer
        self.maxLineBytes = configuration.maxLineBytes
        self.highWaterMark = max(1, configuration.highWaterMark)
        self.lowWaterMark = min(max(0, configuration.lowWaterMark), max(1, configuration.highWaterMark))
        self.framer = LineFramer(maxLineBytes: configuration.maxLineBytes)
        self.lastActivity = uv_now(eventLoop.uvLoop)
        var logger = logger
        logger[metadataKey: "connection.id"] = "\(id)"
        logger[metadataKey: "transport"] = "\(transport.rawValue)"
        self.logger = logger

        if case .stream(let handle) = input {
            payrpc_set_handle_data(handle, Unmanaged.passRetained(self).toOpaque())
            openHandles += 1
        }
        if case .stream(let handle) = output, !sameHandle(input, handle) {
            payrpc_set_handle_data(handle, Unmanaged.passRetained(self).toOpaque())
            openHandles += 1
        }
        if case .file = input {
            fileRequest = .allocate(capacity: 1)
            fileBuffer = .allocate(byteCount: eventLoop.readBufferSize, alignment: 16)
        }
    }

    deinit {
        outBase.map { free($0) }
        fileRequest?.deallocate()
        fileBuffer?.deallocate()
    }

    /// Attaches the handler and starts reading.
    func start(handler: any RPCConnectionHandler) {
        eventLoop.assertInLoopThread()
        self.handler = handler
        started = true
        updateReading()
    }

    // MARK: - RPCConnection

    func write(_ bytes: UnsafeRawBufferPointer) {
        eventLoop.assertInLoopThread()
        guard !closing, !finishing, let source = bytes.baseAddress, bytes.count > 0 else { return }
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
        guard paused != handlerPaused else { return }
        handlerPaused = paused
        if paused {
            updateReading()
        } else if !delivering {
            if !pendingInput.isEmpty || (inputEnded && !inputEndDelivered) {
                scheduleResume()
            } else {
                updateReading()
            }
        }
    }

    func finish() {
        eventLoop.assertInLoopThread()
        guard !finishing, !closing else { return }
        finishing = true
        updateReading()
        flushOutput()
        guard !closing else { return }
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

    // MARK: - Server side

    /// The server is shutting down: read no more and tell the handler the input ended, so that it
    /// answers what it has read and finishes.
    func drain() {
        eventLoop.assertInLoopThread()
        guard !inputEnded, !closing, !finishing else { return }
        inputEnded = true
        inputEndIsEOF = false
        updateReading()
        deliverEndOfInputIfReady()
    }

    /// Closes the connection now, dropping unsent output. Idempotent; the handler hears
    /// `connectionClosed()` once every handle has closed.
    func close() {
        eventLoop.assertInLoopThread()
        guard !closing else { return }
        closing = true
        reading = false
        outCount = 0
        lingerTimer?.close()
        lingerTimer = nil
        let inputHandle: UnsafeMutableRawPointer?
        switch input {
        case .stream(let handle):
            inputHandle = handle
            uv_close(payrpc_handle(handle), streamClosed)
        case .file:
            inputHandle = nil
            closeFileInputIfIdle()
        }
        switch output {
        case .stream(let handle):
            if handle != inputHandle { uv_close(payrpc_handle(handle), streamClosed) }
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

    /// Whether the idle timeout may close this connection.
    /// Output that makes no progress counts as no traffic: a peer that stopped reading is idle too.
    func isIdle(now: UInt64, timeoutMilliseconds: UInt64) -> Bool {
        guard !closing, !lingering else { return false }
        if handler?.hasWorkInFlight ?? false { return false }
        return now >= lastActivity && now - lastActivity >= timeoutMilliseconds
    }

    /// Whether reading is currently running (tests).
    var isReading: Bool { reading }

    // MARK: - LineFramerSink

    func framedLine(_ line: UnsafeRawBufferPointer) -> Bool {
        handler?.received(line: line)
        return mayDeliverMore
    }

    func framedOversizedLine() -> Bool {
        logger.notice("line over the size limit discarded", metadata: ["limit": "\(maxLineBytes)"])
        handler?.receivedOversizedLine(limit: maxLineBytes)
        return mayDeliverMore
    }

    /// Whether the next line of the current read may be handed to the handler. Besides a paused
    /// handler, output counts: one read can hold a thousand requests whose answers are large, so
    /// delivery stops as soon as the unsent output (written or still in the buffer) passes the
    /// high-water mark; the rest of the read waits in `pendingInput` until the output drains.
    private var mayDeliverMore: Bool {
        !handlerPaused && !finishing && !closing && !backpressured && queuedBytes + outCount <= highWaterMark
    }

    // MARK: - Input

    /// Bytes arrived.
    func receive(_ chunk: UnsafeRawBufferPointer) {
        lastActivity = uv_now(eventLoop.uvLoop)
        guard !inputEnded, !finishing, !closing else { return }
        if handlerPaused || !pendingInput.isEmpty {
            pendingInput.append(contentsOf: chunk)
            updateReading()
            return
        }
        delivering = true
        let consumed = framer.process(chunk, into: self)
        delivering = false
        handler?.receivedAvailableLines()
        if consumed < chunk.count, !finishing, !closing {
            pendingInput.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[consumed...]))
        }
        updateReading()
    }

    /// The peer sent EOF (or half-closed).
    func inputDidEnd() {
        if lingering {
            close()
            return
        }
        guard !inputEnded, !closing else { return }
        inputEnded = true
        inputEndIsEOF = true
        updateReading()
        deliverEndOfInputIfReady()
    }

    /// Reading failed (peer reset, ...): the connection is gone.
    func readFailed(_ code: Int32) {
        logger.debug("read failed, closing", metadata: ["error": "\(UVCode.name(code))"])
        close()
    }

    private func scheduleResume() {
        guard !resumeScheduled else { return }
        resumeScheduled = true
        let bound = LoopBound(self, loop: eventLoop)
        eventLoop.execute { bound.unwrapped.resumeDelivery() }
    }

    /// Frames the input kept while the handler had paused, then reads on.
    private func resumeDelivery() {
        resumeScheduled = false
        guard !closing, !finishing, !handlerPaused, !backpressured else { return }
        if !pendingInput.isEmpty {
            let kept = pendingInput
            pendingInput = []
            delivering = true
            let consumed = kept.withUnsafeBytes { framer.process($0, into: self) }
            delivering = false
            handler?.receivedAvailableLines()
            if consumed < kept.count, !finishing, !closing {
                pendingInput = Array(kept[consumed...])
                if !handlerPaused { scheduleResume() }
            }
        }
        deliverEndOfInputIfReady()
        updateReading()
    }

    private func deliverEndOfInputIfReady() {
        guard inputEnded, !inputEndDelivered, pendingInput.isEmpty, !handlerPaused, !closing, !finishing else { return }
        inputEndDelivered = true
        if inputEndIsEOF {
            delivering = true
            framer.finish(into: self)
            delivering = false
            handler?.receivedAvailableLines()
        } else {
            framer.reset()
        }
        guard !closing else { return }
        handler?.inputEnded()
    }

    /// Starts or stops reading to match the state.
    private func updateReading() {
        if lingering { return }
        let wanted = started && !handlerPaused && !backpressured && !inputEnded && !finishing && !closing
            && pendingInput.isEmpty
        switch input {
        case .stream(let handle):
            if wanted && !reading {
                let code = uv_read_start(payrpc_stream(handle), streamAlloc, streamRead)
                if code < 0 {
                    logger.debug("read start failed, closing", metadata: ["error": "\(UVCode.name(code))"])
                    close()
                    return
                }
                reading = true
            } else if !wanted && reading {
                uv_read_stop(payrpc_stream(handle))
                reading = false
            }
        case .file(let fd):
            reading = wanted
            if wanted && !fileReadInFlight { startFileRead(fd) }
        }
    }

    private func startFileRead(_ fd: Int32) {
        guard let request = fileRequest, let buffer = fileBuffer else { return }
        fileReadInFlight = true
        var buf = uv_buf_init(buffer.assumingMemoryBound(to: CChar.self), UInt32(eventLoop.readBufferSize))
        request.pointee.data = Unmanaged.passRetained(self).toOpaque()
        let code = uv_fs_read(eventLoop.uvLoop, request, fd, &buf, 1, -1, fileReadCallback)
        if code < 0 {
            fileReadInFlight = false
            Unmanaged<StreamConnection>.fromOpaque(request.pointee.data).release()
            readFailed(Int32(code))
        }
    }

    fileprivate func fileReadCompleted(_ result: Int) {
        fileReadInFlight = false
        if closing {
            closeFileInputIfIdle()
            return
        }
        if result > 0, let buffer = fileBuffer {
            receive(UnsafeRawBufferPointer(start: buffer, count: result))
        } else if result == 0 {
            inputDidEnd()
        } else {
            readFailed(Int32(truncatingIfNeeded: result))
        }
        updateReading()
        eventLoop.flushPendingOutput()
    }

    private func closeFileInputIfIdle() {
        guard case .file(let fd) = input, !fileReadInFlight, !fileInputClosed else { return }
        fileInputClosed = true
        var request = uv_fs_t()
        uv_fs_close(eventLoop.uvLoop, &request, fd, nil)
        uv_fs_req_cleanup(&request)
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
        guard !closing else {
            outCount = 0
            return
        }
        flushCount &+= 1
        switch output {
        case .stream(let handle):
            let stream = payrpc_stream(handle)
            var offset = 0
            if queuedBytes == 0 {
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
                queuedBytes += remaining
                peakQueuedBytes = max(peakQueuedBytes, queuedBytes)
                if queuedBytes > highWaterMark && !backpressured {
                    backpressured = true
                    logger.debug("output over the high-water mark, reading paused", metadata: ["queued": "\(queuedBytes)"])
                    updateReading()
                }
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
        // Lines held back because the output was large went out at once (a fast reader): go on.
        if !backpressured, !pendingInput.isEmpty, !handlerPaused, !delivering { scheduleResume() }
    }

    fileprivate func didWrite(_ length: Int, status: Int32) {
        queuedBytes -= length
        if status < 0 {
            if status != UVCode.cancelled {
                logger.debug("write failed, closing", metadata: ["error": "\(UVCode.name(status))"])
                close()
            }
            return
        }
        lastActivity = uv_now(eventLoop.uvLoop)
        if backpressured && queuedBytes <= lowWaterMark {
            backpressured = false
            if !pendingInput.isEmpty && !handlerPaused { scheduleResume() } else { updateReading() }
        }
    }

    fileprivate func shutdownCompleted(_ status: Int32) {
        if status < 0 && status != UVCode.cancelled {
            logger.debug("shutdown reported an error", metadata: ["error": "\(UVCode.name(status))"])
        }
        guard status == 0, !closing, !(inputEnded && inputEndIsEOF),
              transport == .tcp || transport == .unix,
              case .stream(let handle) = input
        else {
            close()
            return
        }
        // The peer may still be sending: read and discard until its EOF, for a bounded time.
        lingering = true
        if !reading {
            guard uv_read_start(payrpc_stream(handle), streamAlloc, streamRead) == 0 else {
                close()
                return
            }
            reading = true
        }
        let timer = UVTimer(loop: eventLoop) { [unowned self] _ in close() }
        timer.start(after: StreamConnection.lingerMilliseconds)
        lingerTimer = timer
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

@inline(__always)
private func sameHandle(_ input: StreamConnection.Input, _ handle: UnsafeMutableRawPointer) -> Bool {
    if case .stream(let inputHandle) = input { return inputHandle == handle }
    return false
}

@inline(__always)
private func connection(of handle: UnsafeRawPointer) -> StreamConnection {
    Unmanaged<StreamConnection>.fromOpaque(payrpc_handle_data(handle)).takeUnretainedValue()
}

private func streamAlloc(_ handle: UnsafeMutablePointer<uv_handle_t>?, _ suggested: Int, _ buf: UnsafeMutablePointer<uv_buf_t>?) {
    guard let handle, let buf else { return }
    let loop = eventLoop(of: handle)
    buf.pointee = uv_buf_init(loop.readBuffer.assumingMemoryBound(to: CChar.self), UInt32(loop.readBufferSize))
}

private func streamRead(_ stream: UnsafeMutablePointer<uv_stream_t>?, _ nread: Int, _ buf: UnsafePointer<uv_buf_t>?) {
    guard let stream else { return }
    let connection = connection(of: stream)
    if nread > 0, let base = buf?.pointee.base {
        connection.receive(UnsafeRawBufferPointer(start: base, count: nread))
    } else if nread < 0 {
        if Int32(truncatingIfNeeded: nread) == UVCode.eof {
            connection.inputDidEnd()
        } else {
            connection.readFailed(Int32(truncatingIfNeeded: nread))
        }
    }
    connection.eventLoop.flushPendingOutput()
}

private func writeCallback(_ request: UnsafeMutablePointer<uv_write_t>?, _ status: Int32) {
    guard let request else { return }
    let length = payrpc_write_request_length(request)
    let stream = payrpc_write_request_stream(request)!
    free(request)
    let connection = connection(of: stream)
    connection.didWrite(length, status: status)
    connection.eventLoop.flushPendingOutput()
}

private func shutdownCallback(_ request: UnsafeMutablePointer<uv_shutdown_t>?, _ status: Int32) {
    guard let request else { return }
    let stream = payrpc_shutdown_request_stream(request)!
    request.deallocate()
    connection(of: stream).shutdownCompleted(status)
}

private func streamClosed(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
    guard let handle else { return }
    let connection = Unmanaged<StreamConnection>.fromOpaque(payrpc_handle_data(handle)).takeRetainedValue()
    free(handle)
    connection.handleClosed()
    connection.eventLoop.flushPendingOutput()
}

private func fileReadCallback(_ request: UnsafeMutablePointer<uv_fs_t>?) {
    guard let request else { return }
    let connection = Unmanaged<StreamConnection>.fromOpaque(request.pointee.data).takeRetainedValue()
    let result = request.pointee.result
    uv_fs_req_cleanup(request)
    connection.fileReadCompleted(result)
}
