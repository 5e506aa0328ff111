#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A connection's answered calls since it last handed them to the journal: what the request path
/// writes, a header and two copies of bytes per call into one buffer, handed over as a
/// ``CallChunk`` when it fills (128 calls or 32 KiB), at the end of a read while someone waits on the
/// journal (``CallDemand``), when the journal asks before a query (``handOffIfOpen()``), and when
/// the connection closes. Loop-thread only, owned by the session.
///
/// Its buffer is written by hand (`memcpy` into memory it grows itself) rather than appended to a
/// `[UInt8]`: three generic appends cost a call about 300 instructions (scripts/callgrind.sh,
/// docs/benchmarks.md "The call journal").
///
/// `@unchecked Sendable`: it is used on its loop only; the journal reaches it from elsewhere only
/// through ``loop`` (``handOffIfOpen()`` in a job it runs there).
public final class CallLog: @unchecked Sendable {
    /// Where chunks go.
    let recorder: any CallRecorder
    /// The connection the calls came from.
    let session: ConnectionSession
    /// The loop the log is used on (the journal asks it there).
    public let loop: any EventLoop
    private let demand: CallDemand
    /// Where the call being answered inline is marked (``InlineCall``).
    package let inlineCall: InlineCall
    private var closed = false
    /// Requests and answers over this many bytes are cut.
    let bodyLimit: Int
    /// The sandbox's counters (a clock change starts a new chunk) and its clocks.
    private let activity: SandboxActivity
    private let sandbox: any SandboxAccess
    private var buffer: UnsafeMutableRawPointer
    private var count = 0
    private var capacity: Int
    private var records = 0
    /// Where the last record starts when it is a call answered inline whose end is not written
    /// yet (-1: none).
    private var pending = -1
    private var profileGeneration: UInt64 = .max
    private var clockChanges: UInt64 = 0
    private var monotonicAnchor: UInt64 = 0
    private var wallAnchor = Date(timeIntervalSince1970: 0)
    private var sandboxAnchor = Date(timeIntervalSince1970: 0)
    private var profile = ""
    private var client: String?
    private var nextNumber: UInt64 = 0
    /// The connection's part of its calls' keys (``CallKey``).
    private let keyBase: UInt64

    /// The log of `session`'s calls, handing its chunks to `recorder`, reading the sandbox's clocks
    /// from `sandbox`; attached to the recorder.
    package init(recorder: any CallRecorder, session: ConnectionSession, sandbox: any SandboxAccess) {
        self.recorder = recorder
        self.session = session
        self.loop = session.loop
        self.demand = recorder.demand
        self.inlineCall = recorder.inlineCall
        self.bodyLimit = recorder.bodyLimit
        self.activity = sandbox.activity
        self.sandbox = sandbox
        self.capacity = 1 << 15
        self.buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 15, alignment: 8)
        self.keyBase = CallKey.make(connection: session.id, number: 0)
        assert(CallRecordHeader.layoutHolds)
        recorder.attach(self)
    }

    deinit { buffer.deallocate() }

    /// The key of the connection's next call, taken.
    @inline(__always)
    package func nextKey() -> UInt64 {
        nextNumber &+= 1
        return keyBase | (nextNumber & CallKey.numberMask)
    }

    /// The key ``nextKey()`` gives next, not taken: the mark of a call answered inline, whose key
    /// is taken when it is recorded (or when it leaves the line). Unmasked: a connection would
    /// need 2^40 calls to reach the connection's bits.
    @inline(__always)
    package var upcomingKey: UInt64 { keyBase | (nextNumber &+ 1) }

    /// Appends one answered call. `sandboxStart`: the sandbox time a task read when it started
    /// (nil: the chunk's anchor gives it).
    @inline(__always)
    package func append(
        key: UInt64, start: UInt64, request: UnsafeRawBufferPointer, answer: UnsafeRawBufferPointer,
        flags: CallRecordFlags, sandboxStart: Date? = nil
    ) {
        let end = Self.monotonicNow()
        if pending >= 0 { closePending(at: end) }
        if session.profileGeneration.load(ordering: .acquiring) != profileGeneration
            || activity.clockCount.load(ordering: .relaxed) != clockChanges || count > 1 << 16
        {
            restart()
        }
        if request.count > bodyLimit || answer.count > bodyLimit || sandboxStart != nil {
            appendUnusual(
                key: key, start: start, end: end, request: request, answer: answer, flags: flags, sandboxStart: sandboxStart)
            return
        }
        write(
            CallRecordHeader(
                key: key, start: start, duration: end &- start, sandboxTime: 0, requestCount: UInt32(request.count),
                answerCount: UInt32(answer.count), flags: flags.rawValue), request, answer)
    }

    /// Appends a call answered inline straight into the output, under the next key: its answer is
    /// `output[mark...]`. It ends when the next call answered inline starts (its record says so,
    /// ``CallRecordFlags/endsAtNext``), or when another record is added or the read ends
    /// (``closePending(at:)``): one clock reading per call, not two.
    ///
    /// The usual record's fields are stored one by one into the buffer (a header built on the stack
    /// and copied cost more), and everything unusual — a body over the limit, a new chunk due, an
    /// answer the output no longer holds — is one test that leads out of line
    /// (``appendAnsweredUnusually(start:request:output:from:)``).
    @inline(__always)
    package func appendAnswered(start: UInt64, request: UnsafeRawBufferPointer, output: inout [UInt8], from mark: Int) {
        let answerCount = output.count &- mark
        // No test of the chunk's size: one read's calls are bounded (the read, and the output's
        // high-water mark), and the end of the read hands a full log over (``endRead()``).
        if answerCount < 0 || request.count > bodyLimit || answerCount > bodyLimit
            || session.profileGeneration.load(ordering: .acquiring) != profileGeneration
            || activity.clockCount.load(ordering: .relaxed) != clockChanges
        {
            appendAnsweredUnusually(start: start, request: request, output: &output, from: mark)
            return
        }
        // The previous inline call, if any, is not closed here: it ends when this one starts, and
        // its record says so (``CallRecordFlags/endsAtNext``).
        let needed = CallRecordHeader.size &+ request.count &+ answerCount
        if count &+ needed > capacity { grow(to: count &+ needed) }
        let at = buffer + count
        // The key's number only: a chunk's calls are its connection's (``CallChunk/record(at:frozen:)``).
        nextNumber &+= 1
        at.storeBytes(of: nextNumber, toByteOffset: CallRecordHeader.keyOffset, as: UInt64.self)
        at.storeBytes(of: start, toByteOffset: CallRecordHeader.startOffset, as: UInt64.self)
        at.storeBytes(of: 0, toByteOffset: CallRecordHeader.sandboxTimeOffset, as: UInt64.self)
        at.storeBytes(
            of: UInt64(truncatingIfNeeded: request.count) | UInt64(truncatingIfNeeded: answerCount) << 32,
            toByteOffset: CallRecordHeader.countsOffset, as: UInt64.self)
        at.storeBytes(
            of: UInt64(CallRecordFlags.endsAtNext.rawValue), toByteOffset: CallRecordHeader.flagsOffset, as: UInt64.self)
        (at + CallRecordHeader.size).copyMemory(from: request.baseAddress.unsafelyUnwrapped, byteCount: request.count)
        output.withUnsafeBytes { written in
            (at + (CallRecordHeader.size &+ request.count)).copyMemory(
                from: written.baseAddress.unsafelyUnwrapped + mark, byteCount: answerCount)
        }
        pending = count
        count &+= needed
        records &+= 1
    }

    /// ``appendAnswered(start:request:output:from:)`` for a call out of the usual: a new chunk
    /// starts first when one is due, and a body over the limit is cut (``append(key:start:request:answer:flags:sandboxStart:)``).
    @inline(never)
    private func appendAnsweredUnusually(start: UInt64, request: UnsafeRawBufferPointer, output: inout [UInt8], from mark: Int) {
        let key = nextKey()
        // The output was handed over while the call ran: its answer is not there to copy.
        guard output.count >= mark else { return }
        output.withUnsafeBytes { written in
            append(
                key: key, start: start, request: request, answer: UnsafeRawBufferPointer(rebasing: written[mark...]), flags: [])
        }
    }

    /// Gives the record whose duration waits (``appendAnswered(start:request:output:from:)``)
    /// its end.
    @inline(__always)
    package func closePending(at end: UInt64) {
        guard pending >= 0 else { return }
        let record = buffer + pending
        let start = record.loadUnaligned(fromByteOffset: CallRecordHeader.startOffset, as: UInt64.self)
        record.storeBytes(of: end &- start, toByteOffset: CallRecordHeader.durationOffset, as: UInt64.self)
        record.storeBytes(of: 0, toByteOffset: CallRecordHeader.flagsOffset, as: UInt32.self)
        pending = -1
    }

    /// The read's lines are answered: the last inline call's duration ends now, and the log is
    /// handed over when it is due.
    @inline(__always)
    package func endRead() {
        if pending >= 0 { closePending(at: Self.monotonicNow()) }
        handOffIfDue()
    }

    /// Copies a header and its two byte ranges to the end of the buffer.
    @inline(__always)
    private func write(_ header: CallRecordHeader, _ request: UnsafeRawBufferPointer, _ answer: UnsafeRawBufferPointer) {
        let needed = CallRecordHeader.size + request.count + answer.count
        if count + needed > capacity { grow(to: count + needed) }
        let at = buffer + count
        at.storeBytes(of: header, as: CallRecordHeader.self)
        if let base = request.baseAddress { (at + CallRecordHeader.size).copyMemory(from: base, byteCount: request.count) }
        if let base = answer.baseAddress {
            (at + CallRecordHeader.size + request.count).copyMemory(from: base, byteCount: answer.count)
        }
        count += needed
        records += 1
    }

    @inline(never)
    private func grow(to needed: Int) {
        var capacity = self.capacity
        while capacity < needed { capacity *= 2 }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        grown.copyMemory(from: buffer, byteCount: count)
        buffer.deallocate()
        buffer = grown
        self.capacity = capacity
    }

    /// A record whose request or answer is cut, or whose sandbox time was read apart.
    @inline(never)
    private func appendUnusual(
        key: UInt64, start: UInt64, end: UInt64, request: UnsafeRawBufferPointer, answer: UnsafeRawBufferPointer,
        flags: CallRecordFlags, sandboxStart: Date?
    ) {
        var flags = flags
        var request = request, answer = answer
        if request.count > bodyLimit {
            // Only its start is kept, for the method's name: the journal shows none of its bytes.
            request = UnsafeRawBufferPointer(rebasing: request.prefix(min(bodyLimit, 256)))
            flags.insert(.requestCut)
        }
        if answer.count > bodyLimit {
            // Its start says whether it is an error, and which.
            answer = UnsafeRawBufferPointer(rebasing: answer.prefix(min(bodyLimit, 256)))
            flags.insert(.answerCut)
        }
        var sandboxTime = 0.0
        if let sandboxStart {
            // Its own time, whatever the clock did since the chunk's anchor (a year, or a thousand).
            sandboxTime = sandboxStart.timeIntervalSince1970
            flags.insert(.ownSandboxTime)
        }
        write(
            CallRecordHeader(
                key: key, start: start, duration: end &- start, sandboxTime: sandboxTime, requestCount: UInt32(request.count),
                answerCount: UInt32(answer.count), flags: flags.rawValue), request, answer)
    }

    /// Hands over what is logged when the log is full, or someone wants it now (``CallDemand``):
    /// at the end of a read, and after a task's call.
    @inline(__always)
    package func handOffIfDue() {
        if records >= 128 || count >= 1 << 15 || (records > 0 && demand.isWanted) { handOff() }
    }

    /// Hands over what is logged, unless the connection closed (the journal, before it answers a
    /// query; on the log's loop).
    public func handOffIfOpen() {
        if !closed { handOff() }
    }

    /// The connection closed: what is logged is handed over, and the log leaves the journal.
    package func close() {
        guard !closed else { return }
        handOff()
        closed = true
        recorder.detach(self)
    }

    /// Hands what is logged to the journal.
    package func handOff() {
        if pending >= 0 { closePending(at: Self.monotonicNow()) }
        guard records > 0 else { return }
        let handed = buffer
        capacity = 1 << 15
        buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        recorder.take(
            CallChunk(
                profile: profile, connection: session.id, transport: session.transport, client: client,
                monotonicAnchor: monotonicAnchor, wallAnchor: wallAnchor, sandboxAnchor: sandboxAnchor, storage: handed,
                byteCount: count, count: records))
        count = 0
        records = 0
    }

    /// Starts a new chunk: the connection's profile or a sandbox clock changed (or the chunk is full).
    @inline(never)
    private func restart() {
        handOff()
        profileGeneration = session.profileGeneration.load(ordering: .acquiring)
        clockChanges = activity.clockCount.load(ordering: .relaxed)
        let (profile, client) = session.profileAndClient
        self.profile = profile
        self.client = client
        monotonicAnchor = Self.monotonicNow()
        wallAnchor = Date()
        sandboxAnchor = sandbox.now(profile: profile)
    }

    /// The monotonic clock, in nanoseconds.
    @inline(__always)
    package static func monotonicNow() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: time.tv_nsec)
    }
}
