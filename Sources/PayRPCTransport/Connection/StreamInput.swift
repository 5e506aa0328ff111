import CLibUV

/// A connection's input on a `uv_stream_t` (TCP, Unix socket, pipe, TTY), read with
/// `uv_read_start` into the loop's shared read buffer.
final class StreamInput: ConnectionInput {
    /// The `uv_stream_t`; its `data` holds the connection until its close callback.
    let handle: UnsafeMutableRawPointer

    /// Wraps a handle the caller has initialized.
    init(handle: UnsafeMutableRawPointer) {
        self.handle = handle
    }

    var streamHandle: UnsafeMutableRawPointer? { handle }

    func startReading(for connection: StreamConnection) -> Int32 {
        uv_read_start(payrpc_stream(handle), streamAlloc, streamRead)
    }

    func stopReading() {
        uv_read_stop(payrpc_stream(handle))
    }

    func close() {
        uv_close(payrpc_handle(handle), streamHandleClosed)
    }
}

private func streamAlloc(_ handle: UnsafeMutablePointer<uv_handle_t>?, _ suggested: Int, _ buf: UnsafeMutablePointer<uv_buf_t>?) {
    guard let handle, let buf else { return }
    let loop = eventLoop(of: handle)
    buf.pointee = uv_buf_init(loop.readBuffer.assumingMemoryBound(to: CChar.self), UInt32(loop.readBufferSize))
}

private func streamRead(_ stream: UnsafeMutablePointer<uv_stream_t>?, _ nread: Int, _ buf: UnsafePointer<uv_buf_t>?) {
    guard let stream else { return }
    let connection = StreamConnection.of(handle: stream)
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
