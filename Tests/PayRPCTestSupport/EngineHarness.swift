import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox

/// The real engine with the built-ins and the given services, driven without sockets: what the
/// engine and service tests use. Results and notifications are validated against their schemas.
public final class EngineHarness: @unchecked Sendable {
    /// The engine under test.
    public let engine: RPCEngine
    /// The loop thread the connections live on.
    public let loop: ThreadEventLoop
    /// Draining flag and discovery document.
    public let state: ServerState
    /// The sandbox controls the engine and the services share: tests move its clocks.
    public let sandbox: SandboxControls
    /// The directory of connections the engine and the services share.
    public let connections: ConnectionDirectory
    private var nextID: UInt64 = 0

    /// - Parameters:
    ///   - services: the services to serve besides the built-ins.
    ///   - configuration: engine limits; `validateResults` is forced on.
    ///   - idempotency: the idempotency store, if the test uses keys.
    ///   - sandbox: the sandbox controls (clocks, seeds, armed failures) the services were given.
    ///   - connections: the directory of connections the services were given.
    public init(
        services: [any RPCService] = [], configuration: EngineConfiguration = EngineConfiguration(),
        idempotency: (any IdempotencyStore)? = nil, sandbox: SandboxControls = SandboxControls(),
        connections: ConnectionDirectory = ConnectionDirectory()
    ) throws {
        var configuration = configuration
        configuration.validateResults = true
        let state = ServerState()
        var builder = RouterBuilder()
        BuiltinService(state: state, configuration: configuration).register(on: &builder)
        for service in services { service.register(on: &builder) }
        let router = try builder.build(validateResults: true)
        let document = OpenRPCBuilder(router: router, version: configuration.version)
        state.publish(methodCount: router.methods.count) { Array(document.document().jsonText.utf8) }
        var logger = Logger(label: "payrpc.test")
        logger.logLevel = ProcessInfo.processInfo.environment["PAYRPC_TEST_LOG"] == nil ? .critical : .trace
        self.engine = RPCEngine(
            router: router, configuration: configuration,
            idempotency: idempotency, environment: ServiceEnvironment(sandbox: sandbox, connections: connections),
            logger: logger)
        self.loop = ThreadEventLoop()
        self.state = state
        self.sandbox = sandbox
        self.connections = connections
    }

    deinit { loop.stop() }

    /// Arms the next call of `method` on `profile` to fail with its declared error `error`: what
    /// `sandbox.failNext` does (its JSON-RPC face is in the gateway, tested end to end).
    public func failNext(_ method: String, _ error: String, profile: String = "default") throws {
        let (name, injected) = try engine.router.injectedError(
            for: FailureRequest(method: method, errorName: error, code: nil, message: nil, data: nil))
        sandbox.arm(profile: profile, method: name, failure: InjectedFailure(error: injected), count: 1)
    }

    /// Opens a connection of the given transport kind, served by the engine's JSON-RPC face or by
    /// another face of it (`handlers`: the MCP server); `keepingAlive` is held as long as the
    /// connection is (a test's fixture, so its store's directory outlives the calls).
    public func connect(
        transport: TransportKind = .memory,
        handlers: (any RPCConnectionHandlerFactory & Sendable)? = nil,
        keepingAlive fixture: (any AnyObject & Sendable)? = nil
    ) -> TestConnection {
        nextID += 1
        let id = nextID
        let sink = LineSink()
        let factory: any RPCConnectionHandlerFactory & Sendable = handlers ?? engine
        let loop = self.loop
        let connection = loop.submit { () -> MemoryConnectionBox in
            let connection = MemoryConnection(id: id, transport: transport, loop: loop, sink: sink)
            connection.handler = factory.makeHandler(for: connection)
            return MemoryConnectionBox(connection: connection)
        }
        return TestConnection(connection: connection, loop: loop, sink: sink, owner: self, fixture: fixture)
    }
}

/// Carries a loop-confined connection to the test thread, which only hands it back to the loop.
struct MemoryConnectionBox: @unchecked Sendable {
    let connection: MemoryConnection
}

/// One client of an ``EngineHarness``: sends lines, waits for answers and notifications.
public final class TestConnection: @unchecked Sendable {
    private let box: MemoryConnectionBox
    private let loop: ThreadEventLoop
    private let sink: LineSink
    private let ids = IDCounter()

    /// Keeps the harness (and its loop thread) alive as long as a connection is used.
    private let owner: EngineHarness
    /// Keeps the test's fixture alive as long as a connection is used.
    private let fixture: (any AnyObject & Sendable)?

    init(
        connection: MemoryConnectionBox, loop: ThreadEventLoop, sink: LineSink, owner: EngineHarness,
        fixture: (any AnyObject & Sendable)?
    ) {
        self.owner = owner
        self.fixture = fixture
        self.box = connection
        self.loop = loop
        self.sink = sink
    }

    /// How long waits last before a test gives up: a guard against hangs, not a timing
    /// assertion, so generous (a 2-core machine busy with builds answers slowly, not wrongly;
    /// under ThreadSanitizer with the whole suite running, two journal retry tests once waited
    /// more than 60 s for `journal.pay`, which answers in a second alone).
    public var timeout: Duration = .seconds(120)

    /// Sends one raw line (without its newline).
    public func send(_ line: String) {
        let box = self.box
        let bytes = Array(line.utf8)
        loop.execute { box.connection.deliver(bytes) }
    }

    /// Sends one raw line given as bytes (which need not be valid UTF-8).
    public func send(bytes: [UInt8]) {
        let box = self.box
        loop.execute { box.connection.deliver(bytes) }
    }

    /// Sends a line longer than the transport's limit, as the transport reports it.
    public func sendOversizedLine(limit: Int) {
        let box = self.box
        loop.execute { box.connection.handler?.receivedOversizedLine(limit: limit) }
    }

    /// Tells the engine the client will send nothing more (EOF).
    public func endInput() {
        let box = self.box
        loop.execute { box.connection.handler?.inputEnded() }
    }

    /// Drops the connection as a vanished peer would.
    public func disconnect() {
        let box = self.box
        loop.execute {
            box.connection.finished = true
            box.connection.handler?.connectionClosed()
        }
    }

    /// Whether the engine ended the connection (after EOF and all answers).
    public func waitUntilClosed() async -> Bool {
        _ = await sink.take(timeout: timeout) { _ in false }
        return sink.isClosed
    }

    /// How many times the engine paused reading (in-flight limit).
    public var pauseCount: Int { sink.pauseCount }

    /// The next line the server wrote, whatever it is.
    public func nextLine() async -> String? {
        await sink.take(timeout: timeout) { _ in true }
    }

    /// The next line, parsed.
    public func nextMessage() async -> JSONValue? {
        await nextLine().flatMap { try? JSONValue(parsing: $0) }
    }

    /// Lines written so far that nobody took.
    public var unreadLines: [String] { sink.snapshot }

    /// Sends a request and waits for the response with its id.
    public func request(_ method: String, _ params: JSONValue? = nil) async -> JSONValue? {
        let id = ids.next()
        var members: [JSONValue.Member] = [.init("jsonrpc", "2.0"), .init("id", .int(id)), .init("method", .string(method))]
        if let params { members.append(.init("params", params)) }
        send(JSONValue.object(members).jsonText)
        return await response(id: .int(id))
    }

    /// Waits for the response whose id is `id`.
    public func response(id: JSONValue) async -> JSONValue? {
        let line = await sink.take(timeout: timeout) { line in
            guard let message = try? JSONValue(parsing: line) else { return false }
            return message["id"] == id && message["method"] == nil
        }
        return line.flatMap { try? JSONValue(parsing: $0) }
    }

    /// Calls a method: its result, or the error it answered, thrown.
    public func call(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        guard let response = await request(method, params) else { throw HarnessError.noResponse(method) }
        if let error = response["error"] {
            let code = error["code"].flatMap { Int($0.jsonText) } ?? 0
            throw RPCError(RPCError.Code(code), error["message"]?.stringValue ?? "", data: error["data"])
        }
        return response["result"] ?? .null
    }

    /// The error a call answered, or nil when it succeeded (a missing answer is an internal error).
    public func error(_ method: String, _ params: JSONValue? = nil) async -> RPCError? {
        do {
            _ = try await call(method, params)
            return nil
        } catch let error as RPCError {
            return error
        } catch {
            return RPCError(.internalError, "\(error)")
        }
    }

    /// The connection itself (the service fixtures' clients were wrappers of it).
    public var connection: TestConnection { self }

    /// Sends a notification (no id, no answer).
    public func notify(_ method: String, _ params: JSONValue? = nil) {
        var members: [JSONValue.Member] = [.init("jsonrpc", "2.0"), .init("method", .string(method))]
        if let params { members.append(.init("params", params)) }
        send(JSONValue.object(members).jsonText)
    }

    /// Waits for the next server notification named `method`; returns its params.
    public func notification(_ method: String) async -> JSONValue? {
        let line = await sink.take(timeout: timeout) { line in
            (try? JSONValue(parsing: line))?["method"] == .string(method)
        }
        return line.flatMap { try? JSONValue(parsing: $0) }?["params"]
    }
}

/// Hands out request ids.
final class IDCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var last = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        last += 1
        return last
    }
}

/// Why a harness call failed without an answer.
public enum HarnessError: Error, CustomStringConvertible {
    case noResponse(String)

    public var description: String {
        switch self {
        case .noResponse(let method): "no response to \(method) in time"
        }
    }
}
