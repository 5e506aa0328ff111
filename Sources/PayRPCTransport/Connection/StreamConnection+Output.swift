#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibUV
import Logging
import PayRPCCore

/// The output side of a connection: the buffer a callback's answers are gathered in, sending it
/// with `uv_try_write` and then one `[uv_write_t][payload]` allocation for what the socket did
/// not take, the write and shutdown callbacks, and shutting the output down.
extension StreamConnection {
    /// Flushes what was written and shuts the output down; a file output just closes.
    func shutDown() {
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

    // MARK: - Output

    func growOutput(to needed: Int) {
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
        perform(machine.flushed(queued: queued, now: uv_now(eventLoop.uvLoop)))
        if machine.backpressured && !wasBackpressured {
            logger.debug("output over the high-water mark, reading paused", metadata: ["queued": "\(machine.queuedBytes)"])
        }
    }

    func didWrite(_ length: Int, status: Int32) {
        let failed = status < 0 && status != UVCode.cancelled
        if failed, !machine.isClosed {
            logger.debug("write failed, closing", metadata: ["error": "\(UVCode.name(status))"])
        }
        perform(machine.writeCompleted(length: length, failed: failed, now: uv_now(eventLoop.uvLoop)))
    }

    func shutdownCompleted(_ status: Int32) {
        if status < 0 && status != UVCode.cancelled {
            logger.debug("shutdown reported an error", metadata: ["error": "\(UVCode.name(status))"])
        }
        let mayLinger = (transport == .tcp || transport == .unix) && input.streamHandle != nil
        perform(machine.shutdownCompleted(succeeded: status == 0, mayLinger: mayLinger, now: uv_now(eventLoop.uvLoop)))
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
