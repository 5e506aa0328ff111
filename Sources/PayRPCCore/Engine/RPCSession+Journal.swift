#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import Synchronization

/// The call journal's side of a session: each request, and its answer, copied into the session's
/// ``CallLog`` (handed to the journal once per read). A call answered while its line is handled is
/// recorded here; one that leaves the line (a task, an ordered call waiting its turn) takes a copy
/// of its request with it (``takeJournalled()``) and is recorded when it is answered.
extension RPCSession {
    /// Handles the request object a line holds, recording it and its answer when the journal is
    /// on: the line's bytes are the request's.
    ///
    /// Written out rather than through ``recording(key:start:request:responder:_:)``: the closure's
    /// context cost the usual call (a request answered straight into the output) retains and
    /// releases of what it captured (scripts/callgrind.sh). The call's key is taken when it is
    /// recorded, or when it leaves the line (``takeJournalled()``); its handler is marked with the
    /// key it will have (``CallLog/upcomingKey``).
    @inline(__always)
    func handleLine(_ request: JSONElement, line: UnsafeRawBufferPointer) {
        guard let reference = callLogReference else {
            handleRequest(request, responder: .direct)
            return
        }
        reference._withUnsafeGuaranteedRef { callLog in
            let start = CallLog.monotonicNow()
            journalled.start = start
            journalled.request = line
            let mark = output.writer.bytes.count
            callLog.inlineCall.key.store(callLog.upcomingKey, ordering: .relaxed)
            handleRequest(request, responder: .direct)
            callLog.inlineCall.key.store(0, ordering: .relaxed)
            guard journalled.request != nil else { return }
            journalled.request = nil
            callLog.appendAnswered(start: start, request: line, output: &output.writer.bytes, from: mark)
        }
    }

    /// Handles a member of a batch, recording it when the journal is on.
    func handleBatchMember(_ request: JSONElement, responder: Responder) {
        guard let log = callLog else {
            handleRequest(request, responder: responder)
            return
        }
        let key = log.nextKey()
        recording(key: key, start: CallLog.monotonicNow(), request: request.rawBytes, responder: responder) {
            $0.handleRequest(request, responder: responder)
        }
    }

    /// Runs `body` (which answers the request now, or lets it leave the line) and records the call
    /// if it was answered meanwhile and is journalled.
    func recording(
        key: UInt64, start: UInt64, request: UnsafeRawBufferPointer, responder: Responder, _ body: (RPCSession) -> Void
    ) {
        journalled = JournalledCall(key: key, start: start, request: request)
        // Key 0 again for the next line (``handleLine(_:line:)`` leaves it as it finds it).
        defer { journalled.key = 0 }
        let mark = output.writer.bytes.count
        var collected = 0
        if case .batch(let collector) = responder { collected = collector.responses.count }
        callLog?.inlineCall.key.store(key, ordering: .relaxed)
        body(self)
        callLog?.inlineCall.key.store(0, ordering: .relaxed)
        guard journalled.request != nil, let callLog else { return }
        journalled.request = nil
        switch responder {
        case .direct:
            guard output.writer.bytes.count >= mark else { return }
            output.writer.bytes.withUnsafeBytes { written in
                callLog.append(
                    key: key, start: start, request: request, answer: UnsafeRawBufferPointer(rebasing: written[mark...]),
                    flags: [])
            }
        case .batch(let collector):
            let answer = collector.responses.count > collected ? collector.responses[collector.responses.count - 1] : []
            answer.withUnsafeBytes { answer in
                callLog.append(key: key, start: start, request: request, answer: answer, flags: [])
            }
        }
    }

    /// The call whose line is being handled, copied, when it is journalled and leaves the line: a
    /// task's or a turn's; it is recorded when answered (``recordTask(_:outcome:)``).
    func takeJournalled() -> JournalledTask? {
        guard let request = journalled.request, let callLog else { return nil }
        journalled.request = nil
        return JournalledTask(
            key: journalled.key != 0 ? journalled.key : callLog.nextKey(), start: journalled.start, request: Array(request),
            sandboxStart: engine.sandbox.now(profile: shared.profile), replayNote: journalled.replayNote)
    }

    /// An ordered call's turn came: it is handled as a line is, from its copy.
    func recordingTurn(_ task: JournalledTask?, responder: Responder, _ body: (RPCSession) -> Void) {
        guard let task else {
            body(self)
            return
        }
        task.request.withUnsafeBytes { request in
            recording(key: task.key, start: task.start, request: request, responder: responder, body)
        }
    }

    /// Records a call answered by a task with `outcome` (its `"result":…` or `"error":…` member).
    func recordTask(_ task: JournalledTask, outcome: Outcome) {
        var flags: CallRecordFlags = [.outcomeMember]
        if task.replayNote?.replayed.load(ordering: .relaxed) == true { flags.insert(.replayed) }
        guard let callLog else { return }
        task.request.withUnsafeBytes { request in
            outcome.withUnsafeBytes { answer in
                callLog.append(
                    key: task.key, start: task.start, request: request, answer: answer, flags: flags,
                    sandboxStart: task.sandboxStart)
            }
        }
        callLog.handOffIfDue()
    }

    /// A line refused before any request was read from it (not JSON, not a request): its answer is
    /// recorded, its bytes are not (they may hold anything; the journal says how many there were).
    func journalRefused(_ line: UnsafeRawBufferPointer, _ answer: (RPCSession) -> Void) {
        guard let callLog else {
            answer(self)
            return
        }
        let key = callLog.nextKey()
        let start = CallLog.monotonicNow()
        let mark = output.writer.bytes.count
        answer(self)
        guard output.writer.bytes.count >= mark else { return }
        // The stand-in: how long the line was, never what it said.
        let standIn = Array("{\"lineBytes\":\(line.count)}".utf8)
        output.writer.bytes.withUnsafeBytes { written in
            standIn.withUnsafeBytes { request in
                callLog.append(
                    key: key, start: start, request: request, answer: UnsafeRawBufferPointer(rebasing: written[mark...]),
                    flags: [.refusedLine])
            }
        }
    }
}

/// The call being handled on its line, while it is journalled and has not left it.
struct JournalledCall {
    var key: UInt64 = 0
    var start: UInt64 = 0
    /// The request's bytes (valid while the line is handled); nil once the call left the line, or
    /// when it is not journalled.
    var request: UnsafeRawBufferPointer?
    /// Told when the call's idempotency key replays a stored answer (a call that runs as a task
    /// with a key sets it before it leaves the line).
    var replayNote: ReplayNote?
}

/// A journalled call that left its line: what its record needs when it is answered.
struct JournalledTask: Sendable {
    let key: UInt64
    let start: UInt64
    let request: [UInt8]
    /// The profile's sandbox time when it left the line.
    let sandboxStart: Date
    /// Set when an idempotency key replayed its stored answer.
    let replayNote: ReplayNote?
}

/// Set by a ``Call`` whose idempotency key replayed a stored answer, for its journal record.
package final class ReplayNote: Sendable {
    let replayed = Atomic<Bool>(false)

    package init() {}

    /// The call replayed a stored answer.
    func noteReplay() { replayed.store(true, ordering: .relaxed) }
}
