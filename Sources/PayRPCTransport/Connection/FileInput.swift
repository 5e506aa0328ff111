import CLibUV

/// A connection's input from a regular file (or `/dev/null`): stdin redirected from a file.
///
/// libuv cannot read a file as a stream (`uv_pipe_open` on one aborts the process once reading
/// starts), so reads are chained `uv_fs_read`s on the thread pool, one at a time into a buffer of
/// the loop's read-buffer size.
final class FileInput: ConnectionInput {
    /// The file descriptor (owned: closed by ``close()``).
    let fd: Int32
    private let loop: UnsafeMutablePointer<uv_loop_t>
    private let request: UnsafeMutablePointer<uv_fs_t>
    private let buffer: UnsafeMutableRawPointer
    private let bufferSize: Int
    /// Reading is wanted: each completed read starts the next.
    private var wanted = false
    private var readInFlight = false
    private var closeRequested = false
    private var descriptorClosed = false

    /// Reads `fd` on `eventLoop`'s thread pool.
    init(fd: Int32, eventLoop: LibUVEventLoop) {
        self.fd = fd
        self.loop = eventLoop.uvLoop
        self.request = .allocate(capacity: 1)
        self.bufferSize = eventLoop.readBufferSize
        self.buffer = .allocate(byteCount: bufferSize, alignment: 16)
    }

    deinit {
        request.deallocate()
        buffer.deallocate()
    }

    var streamHandle: UnsafeMutableRawPointer? { nil }

    func startReading(for connection: StreamConnection) -> Int32 {
        wanted = true
        guard !readInFlight, !closeRequested else { return 0 }
        return read(for: connection)
    }

    func stopReading() {
        wanted = false
    }

    func close() {
        wanted = false
        closeRequested = true
        closeIfIdle()
    }

    private func read(for connection: StreamConnection) -> Int32 {
        readInFlight = true
        var buf = uv_buf_init(buffer.assumingMemoryBound(to: CChar.self), UInt32(bufferSize))
        // The request holds the connection (and so this input) until its callback.
        request.pointee.data = Unmanaged.passRetained(connection).toOpaque()
        let code = uv_fs_read(loop, request, fd, &buf, 1, -1, fileReadCallback)
        if code < 0 {
            readInFlight = false
            Unmanaged<StreamConnection>.fromOpaque(request.pointee.data).release()
            return code
        }
        return 0
    }

    fileprivate func readCompleted(_ result: Int, connection: StreamConnection) {
        readInFlight = false
        if closeRequested {
            closeIfIdle()
            return
        }
        if result > 0 {
            connection.receive(UnsafeRawBufferPointer(start: buffer, count: result))
        } else if result == 0 {
            connection.inputDidEnd()
        } else {
            connection.readFailed(Int32(truncatingIfNeeded: result))
        }
        if wanted, !readInFlight, !closeRequested {
            let code = read(for: connection)
            if code < 0 { connection.readFailed(code) }
        }
        connection.eventLoop.flushPendingOutput()
    }

    private func closeIfIdle() {
        guard closeRequested, !readInFlight, !descriptorClosed else { return }
        descriptorClosed = true
        var closeRequest = uv_fs_t()
        uv_fs_close(loop, &closeRequest, fd, nil)
        uv_fs_req_cleanup(&closeRequest)
    }
}

private func fileReadCallback(_ request: UnsafeMutablePointer<uv_fs_t>?) {
    guard let request else { return }
    let connection = Unmanaged<StreamConnection>.fromOpaque(request.pointee.data).takeRetainedValue()
    let result = request.pointee.result
    uv_fs_req_cleanup(request)
    (connection.input as? FileInput)?.readCompleted(result, connection: connection)
}
