import CLibUV
import Logging
import PayRPCCore
import PayRPCSync

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The libuv server: listens on TCP and Unix sockets and/or serves stdin/stdout, and hands the
/// lines of every connection to a handler made by the factory.
///
/// Configure it (``listen(_:)``, ``attachStdio()``, ``onShutdownStarted``) before ``run()``, which
/// runs the loop on the calling thread until shutdown has completed. ``shutdown()`` (or SIGINT /
/// SIGTERM) stops accepting, ends the input of every connection so that its handler answers what it
/// has read and finishes, and returns from `run()` when all connections have closed or after
/// ``TransportConfiguration/drainTimeout``. In stdio mode, EOF on stdin does the same once the
/// answers are flushed.
/// `@unchecked Sendable`: its mutable state is the loop thread's (configured before `run()`); addresses are under a lock.
public final class LibUVServer: @unchecked Sendable {
    private let configuration: TransportConfiguration
    private let handlerFactory: any RPCConnectionHandlerFactory
    private let logger: Logger
    private let eventLoop: LibUVEventLoop

    /// The loop of this server: usable before ``run()`` and from any thread.
    public var loop: any EventLoop { eventLoop }

    /// Called on the loop thread when draining begins (so that health checks can say
    /// NOT_SERVING). Set it before ``run()``.
    public var onShutdownStarted: (@Sendable () -> Void)?

    private enum State { case configuring, running, draining, stopping, stopped }

    // Loop-thread state (or the configuring thread before `run`).
    private var state = State.configuring
    private var listeners: [Listener] = []
    private var connections: [UInt64: StreamConnection] = [:]
    private var socketConnectionCount = 0
    private var stdioConnectionID: UInt64?
    private var signalHandles: [UnsafeMutableRawPointer] = []
    private var idleTimer: UVTimer?
    private var drainTimer: UVTimer?

    private let addresses = Lock<[String]>([])

    /// Creates a server; nothing is opened until ``listen(_:)`` or ``attachStdio()``.
    ///
    /// - Parameters:
    ///   - configuration: Limits and timeouts.
    ///   - handlerFactory: Makes the handler of each connection (on the loop thread).
    ///   - logger: Where the transport logs (metadata `connection.id`, `transport`).
    public init(configuration: TransportConfiguration, handlerFactory: any RPCConnectionHandlerFactory, logger: Logger) {
        self.configuration = configuration
        self.handlerFactory = handlerFactory
        self.logger = logger
        self.eventLoop = LibUVEventLoop()
        // A peer that disconnects must surface as EPIPE on write, not kill the process.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        guard state == .configuring, eventLoop.initError == nil else { return }
        // Never run: close what was opened so that the loop can be freed.
        eventLoop.bindToCurrentThread()
        for listener in listeners { listener.close() }
        for connection in connections.values { connection.close() }
        eventLoop.close()
        // Run the close callbacks now: they release the connections, which hold the loop.
        eventLoop.runOnce()
    }

    /// The addresses actually bound: `host:port` with the real port for TCP (port 0 resolved),
    /// the path for Unix sockets. Callable from any thread.
    public var boundAddresses: [String] { addresses.withLock { $0 } }

    /// Starts listening on `endpoint` (several endpoints are allowed). Call before ``run()`` or on
    /// the loop thread.
    ///
    /// Binding a TCP address that is not loopback logs a warning. A Unix socket is created with mode
    /// 0600; a stale socket file is replaced, a live one is an error.
    /// - Throws: ``TransportError`` when the address cannot be resolved, bound or listened on.
    public func listen(_ endpoint: Endpoint) throws(TransportError) {
        try checkConfigurable("listen \(endpoint)")
        let listener: Listener
        switch endpoint {
        case .tcp(let host, let port):
            listener = try Listener.tcp(host: host, port: port, loop: eventLoop, server: self, logger: logger)
        case .unix(let path):
            listener = try Listener.unix(path: path, loop: eventLoop, server: self, logger: logger)
        }
        listeners.append(listener)
        addresses.withLock { $0.append(listener.boundAddress) }
        logger.info("listening", metadata: ["address": "\(listener.boundAddress)", "transport": "\(listener.kind)"])
    }

    /// Serves stdin and stdout as one connection: requests from stdin, answers to stdout. Call
    /// before ``run()``. When the handler finishes (after EOF on stdin), the server shuts down.
    ///
    /// Each side may be a pipe or socket, a terminal, or a regular file (`/dev/null` included).
    /// - Throws: ``TransportError`` when stdin or stdout is of an unusable kind.
    public func attachStdio() throws(TransportError) {
        try attachStdio(input: 0, output: 1)
    }

    /// Serves the given descriptors as the stdio connection. They are duplicated: the originals
    /// stay open and belong to the caller.
    func attachStdio(input: Int32, output: Int32) throws(TransportError) {
        try checkConfigurable("attach stdio")
        guard stdioConnectionID == nil else {
            throw TransportError(operation: "attach stdio", code: UVCode.busy, message: "stdio is already attached")
        }
        let inputFD = fcntl(input, F_DUPFD_CLOEXEC, 0)
        guard inputFD >= 0 else { throw TransportError(operation: "duplicate stdin", code: -errno) }
        let outputFD = fcntl(output, F_DUPFD_CLOEXEC, 0)
        guard outputFD >= 0 else {
            let code = -errno
            closeFileDescriptor(inputFD)
            throw TransportError(operation: "duplicate stdout", code: code)
        }
        let inputSide: StreamConnection.Input
        do {
            inputSide = try openStdio(inputFD, readable: true, name: "stdin")
        } catch {
            closeFileDescriptor(inputFD)
            closeFileDescriptor(outputFD)
            throw error
        }
        let outputSide: StreamConnection.Output
        do {
            switch try openStdio(outputFD, readable: false, name: "stdout") {
            case .stream(let handle): outputSide = .stream(handle)
            case .file(let fd): outputSide = .file(fd)
            }
        } catch {
            switch inputSide {
            case .stream(let handle): uv_close(payrpc_handle(handle), freeHandle)
            case .file(let fd): closeFileDescriptor(fd)
            }
            closeFileDescriptor(outputFD)
            throw error
        }
        let connection = StreamConnection(
            eventLoop: eventLoop, input: inputSide, output: outputSide, transport: .stdio, peer: "stdio",
            configuration: configuration, logger: logger)
        stdioConnectionID = connection.id
        open(connection)
        logger.debug("stdio attached", metadata: ["transport": "stdio"])
    }

    /// Runs the loop on the calling thread until shutdown has completed.
    /// - Throws: ``TransportError`` when the loop could not be created or `run()` was called before.
    public func run() throws(TransportError) {
        if let error = eventLoop.initError { throw error }
        guard state == .configuring else {
            throw TransportError(operation: "run", code: UVCode.busy, message: "the server has already run")
        }
        eventLoop.bindToCurrentThread()
        state = .running
        if configuration.handlesSignals { installSignalHandlers() }
        if let idleTimeout = configuration.idleTimeout { startIdleSweeper(idleTimeout) }
        eventLoop.run()
        state = .stopped
        logger.debug("event loop stopped")
    }

    /// Starts a graceful shutdown (see the type's documentation). Thread-safe and idempotent;
    /// before ``run()`` it takes effect as soon as the loop runs.
    public func shutdown() {
        eventLoop.execute { [self] in beginShutdown(reason: "shutdown requested") }
    }

    // MARK: - Test and health views (loop thread)

    /// How many connections are open (loop thread).
    var openConnectionCount: Int { connections.count }

    /// The open connections (loop thread; tests).
    var openConnections: [StreamConnection] { Array(connections.values) }

    // MARK: - Accepting

    func accept(on listener: Listener, status: Int32) {
        eventLoop.assertInLoopThread()
        if status < 0 {
            logger.warning("accept failed", metadata: ["error": "\(UVCode.name(status))"])
            return
        }
        let handleType = listener.kind == .tcp ? UV_TCP : UV_NAMED_PIPE
        let client = malloc(uv_handle_size(handleType))!
        if listener.kind == .tcp {
            uv_tcp_init(eventLoop.uvLoop, payrpc_tcp(client))
        } else {
            uv_pipe_init(eventLoop.uvLoop, payrpc_pipe(client), 0)
        }
        let code = uv_accept(listener.stream, payrpc_stream(client))
        guard code == 0 else {
            logger.warning("accept failed", metadata: ["error": "\(UVCode.name(code))"])
            uv_close(payrpc_handle(client), freeHandle)
            return
        }
        guard state == .running else {
            uv_close(payrpc_handle(client), freeHandle)
            return
        }
        guard socketConnectionCount < configuration.maxConnections else {
            logger.warning(
                "connection limit reached, closing a new connection",
                metadata: ["limit": "\(configuration.maxConnections)", "transport": "\(listener.kind)"])
            uv_close(payrpc_handle(client), freeHandle)
            return
        }
        let peer: String
        let transport: TransportKind
        if listener.kind == .tcp {
            uv_tcp_nodelay(payrpc_tcp(client), 1)
            peer = Listener.peerName(of: client) ?? "tcp"
            transport = .tcp
        } else {
            peer = "unix"
            transport = .unix
        }
        let connection = StreamConnection(
            eventLoop: eventLoop, input: .stream(client), output: .stream(client), transport: transport, peer: peer,
            configuration: configuration, logger: logger)
        socketConnectionCount += 1
        open(connection)
        connection.logger.debug("connection opened", metadata: ["peer": "\(peer)"])
        eventLoop.flushPendingOutput()
    }

    private func open(_ connection: StreamConnection) {
        connection.owner = self
        connections[connection.id] = connection
        connection.start(handler: handlerFactory.makeHandler(for: connection))
    }

    // MARK: - Shutdown

    private func beginShutdown(reason: String) {
        eventLoop.assertInLoopThread()
        guard state == .running else { return }
        state = .draining
        logger.info("shutting down", metadata: ["reason": "\(reason)", "connections": "\(connections.count)"])
        onShutdownStarted?()
        for listener in listeners { listener.close() }
        listeners.removeAll()
        idleTimer?.close()
        idleTimer = nil
        for connection in Array(connections.values) { connection.drain() }
        if connections.isEmpty {
            stop()
            return
        }
        let timer = UVTimer(loop: eventLoop) { [unowned self] _ in
            logger.warning("drain timeout: closing the connections still open", metadata: ["connections": "\(connections.count)"])
            forceCloseConnections()
        }
        timer.start(after: LibUVEventLoop.milliseconds(configuration.drainTimeout))
        drainTimer = timer
    }

    private func forceCloseConnections() {
        for connection in Array(connections.values) { connection.close() }
    }

    /// Everything is closed: close the loop's own handles so that `uv_run` returns.
    private func stop() {
        guard state != .stopping, state != .stopped else { return }
        state = .stopping
        drainTimer?.close()
        drainTimer = nil
        idleTimer?.close()
        idleTimer = nil
        for handle in signalHandles { uv_close(payrpc_handle(handle), freeHandle) }
        signalHandles.removeAll()
        eventLoop.close()
    }

    // MARK: - Signals and timers

    private func installSignalHandlers() {
        for signalNumber in [SIGINT, SIGTERM] + (configuration.onHangUp == nil ? [] : [SIGHUP]) {
            let handle = malloc(uv_handle_size(UV_SIGNAL))!
            uv_signal_init(eventLoop.uvLoop, payrpc_signal(handle))
            payrpc_set_handle_data(handle, Unmanaged.passUnretained(self).toOpaque())
            uv_signal_start(payrpc_signal(handle), signalCallback, signalNumber)
            uv_unref(payrpc_handle(handle))
            signalHandles.append(handle)
        }
    }

    fileprivate func received(signal signalNumber: Int32) {
        if signalNumber == SIGHUP {
            configuration.onHangUp?()
            return
        }
        let name = signalNumber == SIGINT ? "SIGINT" : signalNumber == SIGTERM ? "SIGTERM" : "signal \(signalNumber)"
        if state == .draining {
            logger.warning("\(name) while draining: closing every connection now")
            forceCloseConnections()
        } else {
            beginShutdown(reason: name)
        }
    }

    private func startIdleSweeper(_ idleTimeout: Duration) {
        let timeout = max(1, LibUVEventLoop.milliseconds(idleTimeout))
        let interval = min(1000, max(5, timeout / 4))
        let timer = UVTimer(loop: eventLoop) { [unowned self] _ in
            for connection in Array(connections.values) { connection.timeElapsed() }
        }
        timer.start(after: interval, repeatEvery: interval)
        timer.unref()
        idleTimer = timer
    }

    // MARK: - Helpers

    private func checkConfigurable(_ operation: String) throws(TransportError) {
        if let error = eventLoop.initError { throw error }
        switch state {
        case .configuring:
            // Before `run`, whichever thread configures the server is the loop thread.
            eventLoop.bindToCurrentThread()
        case .running:
            guard eventLoop.inLoopThread else {
                throw TransportError(
                    operation: operation, code: UVCode.busy, message: "call it before run() or on the loop thread")
            }
        case .draining, .stopping, .stopped:
            throw TransportError(operation: operation, code: UVCode.busy, message: "the server is shutting down")
        }
    }

    private func openStdio(_ fd: Int32, readable: Bool, name: String) throws(TransportError) -> StreamConnection.Input {
        switch uv_guess_handle(fd) {
        case UV_NAMED_PIPE:
            let handle = malloc(uv_handle_size(UV_NAMED_PIPE))!
            uv_pipe_init(eventLoop.uvLoop, payrpc_pipe(handle), 0)
            let code = uv_pipe_open(payrpc_pipe(handle), fd)
            guard code == 0 else {
                uv_close(payrpc_handle(handle), freeHandle)
                throw TransportError(operation: "open \(name) as a pipe", code: code)
            }
            return .stream(handle)
        case UV_TTY:
            let handle = malloc(uv_handle_size(UV_TTY))!
            let code = uv_tty_init(eventLoop.uvLoop, payrpc_tty(handle), fd, readable ? 1 : 0)
            guard code == 0 else {
                free(handle)
                throw TransportError(operation: "open \(name) as a terminal", code: code)
            }
            return .stream(handle)
        case UV_TCP:
            let handle = malloc(uv_handle_size(UV_TCP))!
            uv_tcp_init(eventLoop.uvLoop, payrpc_tcp(handle))
            let code = uv_tcp_open(payrpc_tcp(handle), fd)
            guard code == 0 else {
                uv_close(payrpc_handle(handle), freeHandle)
                throw TransportError(operation: "open \(name) as a socket", code: code)
            }
            return .stream(handle)
        case UV_FILE:
            return .file(fd)
        default:
            throw TransportError(
                operation: "open \(name)", code: UVCode.notSupported,
                message: "\(name) is not a pipe, socket, terminal or regular file")
        }
    }
}

extension LibUVServer: StreamConnectionOwner {
    func connectionDidClose(_ connection: StreamConnection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        if connection.id == stdioConnectionID {
            connection.logger.debug("stdio closed")
            beginShutdown(reason: "stdio ended")
        } else {
            socketConnectionCount -= 1
            connection.logger.debug("connection closed")
        }
        if state == .draining && connections.isEmpty { stop() }
    }
}

private func signalCallback(_ handle: UnsafeMutablePointer<uv_signal_t>?, _ signalNumber: Int32) {
    guard let handle else { return }
    Unmanaged<LibUVServer>.fromOpaque(payrpc_handle_data(handle)).takeUnretainedValue().received(signal: signalNumber)
}

/// `close(2)`, named so that it cannot be confused with a `close()` method.
private func closeFileDescriptor(_ fd: Int32) {
    _ = close(fd)
}
