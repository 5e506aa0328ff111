import Foundation
import Testing
@testable import PayRPCTransport

typealias Machine = ConnectionStateMachine

/// A state of the machine, reached from a new machine by a list of events (so that every state
/// tested is one the connection can really be in).
struct NamedMachineState: CustomStringConvertible, Sendable {
    let name: String
    let events: [MachineEvent]
    var description: String { name }

    func make() -> Machine {
        var machine = Machine(
            highWaterMark: MachineEvent.high, lowWaterMark: MachineEvent.low,
            idleTimeout: MachineEvent.idle, lingerTimeout: MachineEvent.linger, now: 0)
        for event in events { _ = event.apply(to: &machine) }
        return machine
    }
}

/// One event the owner can report.
enum MachineEvent: CustomStringConvertible, Sendable {
    case start
    case received(String)
    case delivered(remainder: String)
    case handlerPaused(Bool)
    case resume
    case inputEnded(Machine.InputEnd)
    case flushed(queued: Int)
    case writeCompleted(length: Int, failed: Bool)
    case finish
    case shutdownCompleted(succeeded: Bool, mayLinger: Bool)
    case close
    /// A timer fired at `now` on the connection's clock (every other event happens at 0).
    case timeElapsed(now: UInt64, busy: Bool)

    static let high = 1000
    static let low = 100
    static let idle: UInt64 = 10_000
    static let linger: UInt64 = 2000

    var description: String {
        switch self {
        case .start: "start"
        case .received(let text): "received(\(text.debugDescription))"
        case .delivered(let rest): "delivered(remainder: \(rest.debugDescription))"
        case .handlerPaused(let paused): "handlerPaused(\(paused))"
        case .resume: "resume"
        case .inputEnded(let end): "inputEnded(.\(end))"
        case .flushed(let queued): "flushed(queued: \(queued))"
        case .writeCompleted(let length, let failed): "writeCompleted(length: \(length), failed: \(failed))"
        case .finish: "finish"
        case .shutdownCompleted(let succeeded, let mayLinger):
            "shutdownCompleted(succeeded: \(succeeded), mayLinger: \(mayLinger))"
        case .close: "close"
        case .timeElapsed(let now, let busy): "timeElapsed(now: \(now)\(busy ? ", busy" : ""))"
        }
    }

    func apply(to machine: inout Machine) -> Machine.Action {
        switch self {
        case .start: return machine.start()
        case .received(let text): return Array(text.utf8).withUnsafeBytes { machine.received($0, now: 0) }
        case .delivered(let rest): return Array(rest.utf8).withUnsafeBytes { machine.delivered(remainder: $0) }
        case .handlerPaused(let paused): return machine.handlerPaused(paused)
        case .resume: return machine.resume()
        case .inputEnded(let end): return machine.inputEnded(end)
        case .flushed(let queued): return machine.flushed(queued: queued, now: 0)
        case .writeCompleted(let length, let failed):
            // A write completes with at most what is queued.
            return machine.writeCompleted(length: min(length, machine.queuedBytes), failed: failed, now: 0)
        case .finish: return machine.finish()
        case .shutdownCompleted(let succeeded, let mayLinger):
            return machine.shutdownCompleted(succeeded: succeeded, mayLinger: mayLinger, now: 0)
        case .close: return machine.close()
        case .timeElapsed(let now, let busy): return machine.timeElapsed(now: now, handlerBusy: busy)
        }
    }

    /// Every event, with the arguments that lead to different transitions.
    static let all: [MachineEvent] = [
        .start, .received("a\n"), .delivered(remainder: ""), .delivered(remainder: "b\n"),
        .handlerPaused(true), .handlerPaused(false), .resume, .inputEnded(.eof), .inputEnded(.drain),
        .flushed(queued: 0), .flushed(queued: high + 1), .writeCompleted(length: 10, failed: false),
        .writeCompleted(length: high + 1, failed: false), .writeCompleted(length: 10, failed: true), .finish,
        .shutdownCompleted(succeeded: true, mayLinger: true), .shutdownCompleted(succeeded: true, mayLinger: false),
        .shutdownCompleted(succeeded: false, mayLinger: true), .close,
        .timeElapsed(now: linger - 1, busy: false), .timeElapsed(now: linger, busy: false),
        .timeElapsed(now: idle, busy: true), .timeElapsed(now: idle, busy: false),
    ]
}

/// Every kind of state the machine has, each reached by real events.
let machineStates: [NamedMachineState] = [
    NamedMachineState(name: "idle", events: []),
    NamedMachineState(name: "serving", events: [.start]),
    NamedMachineState(name: "serving, paused", events: [.start, .handlerPaused(true)]),
    NamedMachineState(name: "serving, delivering", events: [.start, .received("a\n")]),
    NamedMachineState(name: "serving, delivering, paused", events: [.start, .received("a\n"), .handlerPaused(true)]),
    NamedMachineState(name: "serving, holding, paused", events: [.start, .handlerPaused(true), .received("x\n")]),
    NamedMachineState(
        name: "serving, holding, resume scheduled",
        events: [.start, .handlerPaused(true), .received("x\n"), .handlerPaused(false)]),
    NamedMachineState(
        name: "serving, holding after a partial delivery",
        events: [.start, .received("a\nx\n"), .handlerPaused(true), .delivered(remainder: "x\n")]),
    NamedMachineState(name: "serving, backpressured", events: [.start, .flushed(queued: MachineEvent.high + 1)]),
    NamedMachineState(
        name: "serving, backpressured, holding",
        events: [.start, .received("a\nx\n"), .flushed(queued: MachineEvent.high + 1), .delivered(remainder: "x\n")]),
    NamedMachineState(
        name: "serving, ended by EOF, holding, paused",
        events: [.start, .handlerPaused(true), .received("x\n"), .inputEnded(.eof)]),
    NamedMachineState(name: "serving, ended by drain, paused", events: [.start, .handlerPaused(true), .inputEnded(.drain)]),
    NamedMachineState(name: "serving, end delivered (EOF)", events: [.start, .inputEnded(.eof)]),
    NamedMachineState(name: "serving, end delivered (drain)", events: [.start, .inputEnded(.drain)]),
    NamedMachineState(name: "finishing", events: [.start, .finish]),
    NamedMachineState(name: "finishing after EOF", events: [.start, .inputEnded(.eof), .finish]),
    NamedMachineState(name: "lingering", events: [.start, .finish, .shutdownCompleted(succeeded: true, mayLinger: true)]),
    NamedMachineState(name: "closed", events: [.start, .close]),
]

/// Whether the input should read in this state: the rule the connection followed before it had a
/// machine, restated independently of it.
private func expectedReading(_ machine: Machine, before: Machine) -> Bool {
    switch machine.state {
    case .serving(let serving) where serving.delivering:
        // Left alone while the owner delivers; the end of the delivery settles it.
        return before.reading
    case .serving(let serving):
        return serving.input == .flowing && !serving.handlerPaused && !machine.backpressured
    case .lingering:
        return true
    case .idle, .finishing, .closed:
        return false
    }
}

private func render(_ machine: Machine) -> String {
    var text: String
    switch machine.state {
    case .idle: text = "idle"
    case .finishing(let peerEnded): text = "finishing(peerEnded: \(peerEnded))"
    case .lingering: text = "lingering"
    case .closed: text = "closed"
    case .serving(let serving):
        text = "serving(" + render(serving.input)
        if serving.handlerPaused { text += ", paused" }
        if serving.delivering { text += ", delivering" }
        if serving.resumeScheduled { text += ", resumeScheduled" }
        text += ")"
    }
    if machine.reading { text += " reading" }
    if machine.backpressured { text += " backpressured" }
    return text + " queued=\(machine.queuedBytes)"
}

private func render(_ input: Machine.Input) -> String {
    switch input {
    case .flowing: "flowing"
    case .holding(let held): "holding(\(String(decoding: held, as: UTF8.self).debugDescription))"
    case .ended(let end, let held): "ended(.\(end), held: \(String(decoding: held, as: UTF8.self).debugDescription))"
    case .endDelivered(let end): "endDelivered(.\(end))"
    }
}

private func render(_ action: Machine.Action) -> String {
    let step: String
    switch action.step {
    case .frameHeld(let held): step = "frameHeld(\(String(decoding: held, as: UTF8.self).debugDescription))"
    case .deliverEnd(let end): step = "deliverEnd(.\(end))"
    default: step = "\(action.step)"
    }
    return "reading: \(action.reading), step: \(step)"
}

private let transitionsFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("ConnectionStateMachine.transitions.txt")

@Suite("Connection state machine")
struct ConnectionStateMachineTests {
    @Test("Every state × every event keeps the invariants", arguments: machineStates)
    func invariants(state: NamedMachineState) {
        for event in MachineEvent.all {
            var machine = state.make()
            let before = machine
            let action = event.apply(to: &machine)
            let context = Comment(rawValue: "\(state.name) --\(event)--> \(render(action)); \(render(machine))")
            // Reading follows the state, and the action says exactly how it changed.
            #expect(machine.reading == expectedReading(machine, before: before), context)
            switch action.reading {
            case .none: #expect(machine.reading == before.reading, context)
            case .start: #expect(!before.reading && machine.reading, context)
            case .stop: #expect(before.reading && !machine.reading, context)
            }
            // A closed connection ignores everything (write callbacks still count down the queue).
            if before.isClosed {
                #expect(action == .none, context)
                #expect(machine.isClosed, context)
            }
            // Close is asked for once, and only by becoming closed.
            #expect((action.step == .close || action.step == .closeIdle) == (!before.isClosed && machine.isClosed), context)
            // Lines and the end reach the handler only while serving, never while it paused or
            // the output is over the mark.
            switch action.step {
            case .frame, .frameHeld:
                guard case .serving(let serving) = machine.state else {
                    Issue.record("delivery outside serving: \(context)")
                    break
                }
                #expect(serving.delivering, context)
                #expect(!serving.handlerPaused && !machine.backpressured, context)
            case .deliverEnd(let end):
                guard case .serving(let serving) = machine.state else {
                    Issue.record("end delivered outside serving: \(context)")
                    break
                }
                #expect(serving.input == .endDelivered(end), context)
                #expect(!serving.handlerPaused, context)
            case .scheduleResume:
                guard case .serving(let serving) = machine.state else {
                    Issue.record("resume outside serving: \(context)")
                    break
                }
                #expect(serving.resumeScheduled, context)
            default:
                break
            }
            // Received bytes are framed now or held, never dropped, while the input is open.
            if case .received(let text) = event, case .serving(let old) = before.state, isOpen(old.input) {
                guard case .serving(let new) = machine.state else {
                    Issue.record("received bytes ended serving: \(context)")
                    continue
                }
                if action.step != .frame {
                    #expect(heldCount(new.input) == heldCount(old.input) + text.utf8.count, context)
                }
            }
            // Backpressure: on above the high-water mark, off again only at the low one.
            if machine.backpressured != before.backpressured {
                #expect(
                    machine.backpressured ? machine.queuedBytes > MachineEvent.high : machine.queuedBytes <= MachineEvent.low,
                    context)
            }
        }
    }

    @Test("The transition table (every state × every event) is the reviewed one; PAYRPC_RECORD=1 rewrites it")
    func transitionTable() throws {
        var table = "# ConnectionStateMachine: state --event--> action; new state. Generated by\n"
        table += "# ConnectionStateMachineTests.transitionTable; review the diff when it changes.\n"
        for state in machineStates {
            let start = state.make()
            table += "\n## \(state.name): \(render(start))\n"
            for event in MachineEvent.all {
                var machine = start
                let action = event.apply(to: &machine)
                table += "\(event) --> \(render(action)); \(render(machine))\n"
            }
        }
        if ProcessInfo.processInfo.environment["PAYRPC_RECORD"] == "1" {
            try table.write(to: transitionsFile, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: transitionsFile, encoding: .utf8)
        #expect(table == expected, "the transitions changed; rerun with PAYRPC_RECORD=1 and review the diff")
    }

    @Test("Idle: closed after the timeout without traffic, measured from the last read or write, never while busy")
    func idleTimeoutOnTheInjectedClock() {
        var machine = Machine(highWaterMark: 1000, lowWaterMark: 100, idleTimeout: 500, now: 1000)
        _ = machine.start()
        #expect(machine.timeElapsed(now: 1499, handlerBusy: false) == .none)
        // Bytes at 1400 move the deadline to 1900.
        _ = Array("a\n".utf8).withUnsafeBytes { machine.received($0, now: 1400) }
        _ = machine.delivered(remainder: UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(machine.timeElapsed(now: 1899, handlerBusy: false) == .none)
        #expect(machine.timeElapsed(now: 5000, handlerBusy: true) == .none)
        // Output the socket took at once is traffic; output stuck in libuv is not.
        #expect(machine.flushed(queued: 0, now: 1800) == .none)
        #expect(machine.flushed(queued: 10, now: 2299) == .none)
        #expect(machine.timeElapsed(now: 2299, handlerBusy: false) == .none)
        #expect(machine.timeElapsed(now: 2300, handlerBusy: false) == Machine.Action(reading: .stop, step: .closeIdle))
        #expect(machine.isClosed)
        #expect(machine.timeElapsed(now: 9999, handlerBusy: false) == .none)
        // Without an idle timeout (stdio), never.
        var stdio = Machine(highWaterMark: 1000, lowWaterMark: 100, idleTimeout: nil, now: 0)
        _ = stdio.start()
        #expect(stdio.timeElapsed(now: .max, handlerBusy: false) == .none)
    }

    @Test("Linger: a finished socket closes at its peer's EOF, or when the linger timeout has passed since the shutdown")
    func lingerTimeoutOnTheInjectedClock() {
        var machine = Machine(highWaterMark: 1000, lowWaterMark: 100, idleTimeout: 100, lingerTimeout: 2000, now: 0)
        _ = machine.start()
        _ = machine.finish()
        #expect(machine.shutdownCompleted(succeeded: true, mayLinger: true, now: 700).step == .startLinger)
        // Lingering is not idleness: only the linger deadline closes it.
        #expect(machine.timeElapsed(now: 2699, handlerBusy: false) == .none)
        #expect(machine.timeElapsed(now: 2700, handlerBusy: false) == Machine.Action(reading: .stop, step: .close))
    }

    @Test("Backpressure has hysteresis: off only at the low-water mark, then held lines resume")
    func backpressureHysteresis() {
        var machine = Machine(highWaterMark: 1000, lowWaterMark: 100)
        #expect(machine.start() == Machine.Action(reading: .start, step: .none))
        #expect(machine.mayDeliver(unsentOutput: 1000))
        #expect(!machine.mayDeliver(unsentOutput: 1001))
        #expect(
            Array("a\nb\n".utf8).withUnsafeBytes { machine.received($0, now: 0) } == Machine.Action(reading: .none, step: .frame))
        // The first line's answer filled the output: the framer stops, and the flush queues it.
        #expect(
            Array("b\n".utf8).withUnsafeBytes { machine.delivered(remainder: $0) }
                == Machine.Action(reading: .stop, step: .scheduleResume))
        #expect(machine.flushed(queued: 1001, now: 0) == .none)
        #expect(machine.backpressured)
        #expect(machine.resume() == .none)
        #expect(machine.writeCompleted(length: 500, failed: false, now: 0) == .none)
        #expect(machine.backpressured)
        #expect(
            machine.writeCompleted(length: 401, failed: false, now: 0) == Machine.Action(reading: .none, step: .scheduleResume))
        #expect(!machine.backpressured)
        #expect(machine.resume() == Machine.Action(reading: .none, step: .frameHeld(Array("b\n".utf8))))
        #expect(
            machine.delivered(remainder: UnsafeRawBufferPointer(start: nil, count: 0))
                == Machine.Action(reading: .start, step: .none))
        #expect(machine.peakQueuedBytes == 1001)
    }

    @Test("A finished socket lingers for the peer's EOF, then closes; after EOF it closes at once")
    func lingering() {
        var machine = Machine(highWaterMark: 1000, lowWaterMark: 100)
        _ = machine.start()
        #expect(machine.finish() == Machine.Action(reading: .stop, step: .shutdown))
        #expect(
            machine.shutdownCompleted(succeeded: true, mayLinger: true, now: 0)
                == Machine.Action(reading: .start, step: .startLinger))
        #expect(Array("late\n".utf8).withUnsafeBytes { machine.received($0, now: 0) } == .none)
        #expect(machine.inputEnded(.eof) == Machine.Action(reading: .stop, step: .close))
        #expect(machine.isClosed && !machine.reading)

        var afterEOF = Machine(highWaterMark: 1000, lowWaterMark: 100)
        _ = afterEOF.start()
        #expect(afterEOF.inputEnded(.eof) == Machine.Action(reading: .stop, step: .deliverEnd(.eof)))
        _ = afterEOF.finish()
        #expect(
            afterEOF.shutdownCompleted(succeeded: true, mayLinger: true, now: 0) == Machine.Action(reading: .none, step: .close))
    }

    @Test(
        "Drip-fed through a framer with a handler that pauses: every line once, in order, then the end once",
        arguments: [1, 2, 3, 7, 64], [false, true])
    func simulatedConnection(chunkSize: Int, smallOutput: Bool) {
        let lines = (0..<200).map { "line \($0)" }
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        let simulation = Simulation(highWaterMark: smallOutput ? 40 : 100_000)
        simulation.run(bytes, chunkSize: chunkSize)
        #expect(simulation.handled == lines)
        #expect(simulation.endsDelivered == [.eof])
        #expect(simulation.machine.state == .serving(Machine.Serving(input: .endDelivered(.eof))))
        #expect(simulation.peakUnsent <= (smallOutput ? 40 + 16 : 100_000 + 16))
    }
}

private func isOpen(_ input: Machine.Input) -> Bool {
    switch input {
    case .flowing, .holding: true
    case .ended, .endDelivered: false
    }
}

private func heldCount(_ input: Machine.Input) -> Int {
    switch input {
    case .holding(let held), .ended(_, let held): held.count
    case .flowing, .endDelivered: 0
    }
}

/// The owner's part without libuv: a framer, a handler that pauses every third line and
/// answers each line with 16 bytes, an output flushed at the end of each "callback", queued
/// writes that complete one per turn, and a queue of scheduled resumes.
private final class Simulation: LineFramerSink {
    var machine: Machine
    var framer = LineFramer(maxLineBytes: 1024)
    var handled: [String] = []
    var endsDelivered: [Machine.InputEnd] = []
    var unsent = 0
    var peakUnsent = 0
    var writes: [Int] = []
    var resumes = 0
    var reading = false
    var pausedTurns = 0

    init(highWaterMark: Int) {
        machine = Machine(highWaterMark: highWaterMark, lowWaterMark: highWaterMark / 4)
    }

    func framedLine(_ line: UnsafeRawBufferPointer) -> Bool {
        handled.append(String(decoding: line, as: UTF8.self))
        unsent += 16
        peakUnsent = max(peakUnsent, unsent)
        if handled.count % 3 == 0 {
            perform(machine.handlerPaused(true))
            pausedTurns = 2
        }
        return machine.mayDeliver(unsentOutput: unsent)
    }

    func framedOversizedLine() -> Bool { true }

    func perform(_ action: Machine.Action) {
        switch action.reading {
        case .start: reading = true
        case .stop: reading = false
        case .none: break
        }
        switch action.step {
        case .frame: Issue.record("frame outside receive")
        case .frameHeld(let held): held.withUnsafeBytes { frame($0) }
        case .deliverEnd(let end):
            if end == .eof { framer.finish(into: self) }
            endsDelivered.append(end)
        case .scheduleResume: resumes += 1
        case .none, .shutdown, .startLinger, .close, .closeIdle: break
        }
    }

    func frame(_ bytes: UnsafeRawBufferPointer) {
        let consumed = framer.process(bytes, into: self)
        perform(machine.delivered(remainder: UnsafeRawBufferPointer(rebasing: bytes[consumed...])))
    }

    /// The end of a loop callback: flush the output as one queued write.
    func flush() {
        let queued = unsent
        unsent = 0
        if queued > 0 { writes.append(queued) }
        perform(machine.flushed(queued: queued, now: 0))
    }

    /// One loop turn: a write completes, the handler may resume, a scheduled resume runs.
    func turn() {
        if !writes.isEmpty { perform(machine.writeCompleted(length: writes.removeFirst(), failed: false, now: 0)) }
        if pausedTurns > 0 {
            pausedTurns -= 1
            if pausedTurns == 0 { perform(machine.handlerPaused(false)) }
        }
        flush()
        while resumes > 0 {
            resumes -= 1
            perform(machine.resume())
            flush()
        }
    }

    func run(_ bytes: [UInt8], chunkSize: Int) {
        perform(machine.start())
        var offset = 0
        var turns = 0
        while turns < 100_000 {
            turns += 1
            if reading && offset < bytes.count {
                let end = min(bytes.count, offset + chunkSize)
                let action = Array(bytes[offset..<end]).withUnsafeBytes { chunk -> Machine.Action in
                    let action = machine.received(chunk, now: 0)
                    if action.step == .frame { frame(chunk) }
                    return action
                }
                if action.step != .frame { perform(action) }
                offset = end
                flush()
            } else if reading && offset == bytes.count {
                perform(machine.inputEnded(.eof))
                offset += 1
                flush()
            }
            turn()
            if !endsDelivered.isEmpty && writes.isEmpty { break }
        }
    }
}
