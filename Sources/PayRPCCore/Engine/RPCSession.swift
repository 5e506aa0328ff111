import Logging
import PayRPCJSON
import PayRPCSchema
import Synchronization

/// The engine's side of one connection: parses each line once, classifies it with one switch,
/// dispatches, and writes every answer back on the loop thread.
///
/// Loop-thread only. Inline handlers answer while the line is parsed, straight into the output
/// buffer; task handlers run on the connection's loop (``LoopTaskExecutor``) and their answers
/// are written when they complete.
///
/// Its jobs live in files of their own: the connection's events and the session's state here;
/// the envelope and batches in `RPCSession+Envelope.swift`; dispatch, inline
/// and as tasks, in `RPCSession+Dispatch.swift`; a task's lifecycle (deadline, cancellation,
/// idempotency, answer) in ``Call``; the response lines in ``SessionOutput``.
final class RPCSession: GatheringSession {
    let engine: RPCEngine
    let connection: any RPCConnection
    /// Where the calls' tasks run: the connection's loop thread (see ``LoopTaskExecutor``).
    let taskExecutor: LoopTaskExecutor
    let shared: ConnectionSession
    let logger: Logger
    /// Cleared when the connection closes, which breaks the cycle through ``shared``.
    private let reference: LoopBound<SessionReference<RPCSession>>
    let tape = JSONTape()
    /// What absent params read as (``NormalizedParams/emptyObject``), kept here so that a call
    /// does not read the static (a `swift_once` each time).
    let absentParams = NormalizedParams.emptyObject.root
    var output = SessionOutput()
    /// The calls running as tasks, and the ordered calls waiting their turn.
    var calls = CallBook<InFlightCall>()
    /// Input ended, finished, reading paused.
    var life = SessionLife()
    var authenticated: Bool
    /// The context shared by calls without `_meta` (held: retained once, released when replaced
    /// or when the session goes), and the profile generation it was made for.
    var cachedPlainContext: Unmanaged<RequestContext>?
    var cachedPlainContextGeneration: UInt64 = 0
    /// The calls answered since the last read's end, for the call journal (nil: no journal).
    let callLog: CallLog?
    /// ``callLog``, unretained, for the request path (the session holds it as long as it lives).
    let callLogReference: Unmanaged<CallLog>?
    /// The call whose line is being handled, while it is journalled and has not left the line.
    var journalled = JournalledCall()

    init(engine: RPCEngine, connection: any RPCConnection) {
        self.engine = engine
        self.connection = connection
        let reference = LoopBound(SessionReference<RPCSession>(), loop: connection.loop)
        self.reference = reference
        let setup = ConnectionSetup(engine: engine, connection: connection, reference: reference) { session, name, params in
            session.writeNotification(name, params: params)
        }
        self.taskExecutor = setup.taskExecutor
        self.logger = setup.logger
        self.shared = setup.shared
        self.authenticated = setup.authenticated
        let callLog = engine.calls.map { CallLog(recorder: $0, session: setup.shared, sandbox: engine.sandbox) }
        self.callLog = callLog
        self.callLogReference = callLog.map { Unmanaged.passUnretained($0) }
        reference.unwrapped.session = self
        // Unowned, and dropped when the connection closes: the session is alive until then.
        shared.cancelHandler = { [unowned self] id in cancel(idKey: id) }
        shared.authenticate = { [unowned self] in authenticated = true }
    }

    deinit {
        cachedPlainContext?.release()
    }

    var hasWorkInFlight: Bool { !calls.isIdle }

    // MARK: Input

    /// Answers one line. Its answers, and those of the read's earlier lines, are gathered and
    /// written in one go when the read's lines have been delivered (``receivedAvailableLines()``):
    /// one copy into the connection's buffer per read instead of one per line. The connection, the
    /// one owner of backpressure, counts them (the returned size) with its own unsent output and
    /// stops delivering lines once they pass its high-water mark, so a client that does not read
    /// cannot make the engine gather a whole read's worth of answers.
    func received(line: UnsafeRawBufferPointer) -> Int {
        guard !life.finished else { return 0 }
        answer(line)
        return output.writer.bytes.count
    }

    /// Parses one line and answers it (or starts its calls).
    private func answer(_ line: UnsafeRawBufferPointer) {
        do {
            try tape.parse(line)
        } catch {
            let rpcError =
                error.reason == .invalidUTF8
                ? RPCError(.parseError, "Parse error: invalid UTF-8", data: ["detail": .string(error.description)])
                : RPCError.parse(error.description)
            journalRefused(line) { $0.output.writeError(rpcError, id: nil, to: .direct) }
            return
        }
        let root = tape.root
        switch root.kind {
        case .array:
            handleBatch(root)
        case .object:
            handleLine(root, line: line)
        case .null, .bool, .number, .string:
            journalRefused(line) {
                $0.output.writeError(
                    .invalidRequest("a request must be an object or an array of requests"), id: nil, to: .direct)
            }
        }
    }

    func inputEnded() {
        life.endInput()
        finishIfDone()
    }

    /// Hands the read's answers to the connection, and its journalled calls to the journal when
    /// they are due (``CallLog/handOffIfDue()``).
    func receivedAvailableLines() {
        flush()
        callLog?.endRead()
    }

    func connectionClosed() {
        callLog?.close()
        life.close()
        calls.stopAll()
        shared.cancelHandler = nil
        shared.authenticate = nil
        reference.unwrapped.session = nil
        shared.markClosed()
    }

    // MARK: Output

    fileprivate func writeNotification(_ name: String, params: [UInt8]) {
        guard !life.finished else { return }
        output.writeNotification(name, params: params)
        flush()
    }
}

/// A session as closures that outlive a call (notifications sent later) reach it: strong until
/// the connection closes, then nil.
///
/// Not a `weak` reference: an object that is weakly referenced keeps its reference counts in a
/// side table, and every retain and release of the session (one pair per request line) then took
/// the slow path (~5 % of `rpc.health`'s CPU in perf).
package final class SessionReference<Session: AnyObject> {
    package var session: Session?

    /// No session yet (the session sets itself once it is made).
    package init() {}
}
