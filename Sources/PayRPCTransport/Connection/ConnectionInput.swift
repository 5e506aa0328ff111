/// Where a ``StreamConnection`` reads from: a libuv stream (``StreamInput``: TCP, Unix socket,
/// pipe, TTY) or a regular file (``FileInput``), behind one interface so that the connection's
/// logic does not branch on the kind.
///
/// An input reports what it reads to its connection (``StreamConnection/receive(_:)``,
/// ``StreamConnection/inputDidEnd()``, ``StreamConnection/readFailed(_:)``). Loop thread only.
protocol ConnectionInput: AnyObject {
    /// The `uv_stream_t` when the input is a stream (on sockets the output shares it), else nil.
    var streamHandle: UnsafeMutableRawPointer? { get }

    /// Starts reading for `connection` (idempotent).
    /// - Returns: 0, or the libuv error that prevented it.
    func startReading(for connection: StreamConnection) -> Int32

    /// Stops reading; a read already in flight (files) still reports its bytes.
    func stopReading()

    /// Closes the input; a stream's handle reports its close to the connection.
    func close()
}
