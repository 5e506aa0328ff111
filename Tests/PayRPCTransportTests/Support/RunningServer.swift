import Foundation
import Logging
import PayRPCCore
import PayRPCTestSupport
@testable import PayRPCTransport

/// A ``LibUVServer`` running on its own thread for a live test.
final class RunningServer: @unchecked Sendable {
    let server: LibUVServer
    let factory: any RPCConnectionHandlerFactory
    let logs = CapturingLogHandler.Store()
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var runError: TransportError?
    private var hasFinished = false

    /// Creates the server, lets `setup` configure it (listen, attach stdio), and runs it.
    init(
        configuration: TransportConfiguration = .testDefault,
        factory: any RPCConnectionHandlerFactory,
        setup: (LibUVServer) throws -> Void
    ) throws {
        self.factory = factory
        let store = logs
        let logger = Logger(label: "payrpc.transport.test") { label in CapturingLogHandler(store: store) }
        server = LibUVServer(configuration: configuration, handlerFactory: factory, logger: logger)
        try setup(server)
        let thread = Thread { [self] in
            do throws(TransportError) {
                try server.run()
            } catch {
                lock.withLock { runError = error }
            }
            finished.signal()
        }
        thread.stackSize = 1 << 20
        // The loop thread binds itself when run() starts; until then the creating thread counts as
        // the loop thread, so a test that schedules or cancels a job right away raced with the
        // bind (a timer started here, then closed from the loop: "LoopBound value used off the
        // loop thread"). A first job that has run means the loop is running on its own thread.
        let running = DispatchSemaphore(value: 0)
        server.loop.execute { running.signal() }
        thread.start()
        if running.wait(timeout: .now() + 60) == .timedOut {
            print("RunningServer: the loop did not start within 60 s")
        }
    }

    /// The first bound address.
    var address: String { server.boundAddresses.first ?? "" }

    /// Waits for `run()` to return, at most `timeout` seconds: a bound that only ends a hang, long
    /// enough for a loaded machine under a sanitizer (a server's whole input may still be queued).
    func waitUntilStopped(timeout: TimeInterval = 120) -> Bool {
        if lock.withLock({ hasFinished }) { return true }
        guard finished.wait(timeout: .now() + timeout) == .success else { return false }
        lock.withLock { hasFinished = true }
        return true
    }

    /// Shuts the server down and waits for `run()` to return.
    @discardableResult
    func stop(timeout: TimeInterval = 120) -> Bool {
        server.shutdown()
        return waitUntilStopped(timeout: timeout)
    }

    /// Runs `body` on the loop thread and returns its result (nil on timeout).
    func onLoop<T>(timeout: TimeInterval = 10, _ body: @escaping (LibUVServer) -> T) -> T? {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        let server = self.server
        let bound = UncheckedBox(body)
        server.loop.execute {
            box.value = bound.value(server)
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return box.value
    }
}

extension TransportConfiguration {
    /// Defaults for tests: no signal handlers inside the test process, a short drain.
    static var testDefault: TransportConfiguration {
        var configuration = TransportConfiguration()
        configuration.handlesSignals = false
        configuration.drainTimeout = .seconds(5)
        return configuration
    }
}

private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// A fresh temporary directory with a short path (Unix socket paths are limited to 107 bytes).
func makeTemporaryDirectory() throws -> String {
    var template = Array("/tmp/payrpc-test-XXXXXX".utf8CString)
    guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw SocketClientError("mkdtemp failed")
    }
    return String(cString: result)
}
