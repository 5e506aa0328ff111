#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A session's answered calls since it last handed them to the journal: what the request path
/// writes, a header and two copies of bytes per call into one buffer, handed over as a
/// ``CallChunk`` once per read (``handOff(_:)``). Loop-thread only, owned by the session.
package struct CallLog {
    /// Where chunks go.
    let recorder: any CallRecorder
    /// Requests and answers over this many bytes are cut.
    let bodyLimit: Int
    private var bytes: [UInt8] = []
    private var profileGeneration: UInt64 = .max
    private var clockChanges: UInt64 = 0
    private var monotonicAnchor: UInt64 = 0
    private var wallAnchor = Date(timeIntervalSince1970: 0)
    private var sandboxAnchor = Date(timeIntervalSince1970: 0)
    private var profile = ""
    private var client: String?
    private var nextNumber: UInt64 = 0

    /// A log handing its chunks to `recorder`.
    package init(recorder: any CallRecorder) {
        self.recorder = recorder
        self.bodyLimit = recorder.bodyLimit
    }

    /// The key of the connection's next call.
    @inline(__always)
    package mutating func nextKey(connection: UInt64) -> UInt64 {
        nextNumber += 1
        return CallKey.make(connection: connection, number: nextNumber)
    }

    /// Appends one answered call. `sandboxStart`: the sandbox time a task read when it started
    /// (nil: the chunk's anchor gives it).
    @inline(__always)
    package mutating func append(
        key: UInt64, start: UInt64, end: UInt64, request: UnsafeRawBufferPointer, answer: UnsafeRawBufferPointer,
        flags: CallRecordFlags, sandboxStart: Date? = nil, session: ConnectionSession, sandbox: any SandboxAccess
    ) {
        if session.profileGeneration.load(ordering: .acquiring) != profileGeneration
            || sandbox.activity.clockCount.load(ordering: .relaxed) != clockChanges || bytes.count > 1 << 16
        {
            restart(session: session, sandbox: sandbox)
        }
        if request.count > bodyLimit || answer.count > bodyLimit || sandboxStart != nil {
            appendUnusual(
                key: key, start: start, end: end, request: request, answer: answer, flags: flags, sandboxStart: sandboxStart)
            return
        }
        let header = CallRecordHeader(
            key: key, start: start, duration: end &- start, sandboxShift: 0, requestCount: UInt32(request.count),
            answerCount: UInt32(answer.count), flags: flags.rawValue)
        withUnsafeBytes(of: header) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: request)
        bytes.append(contentsOf: answer)
    }

    /// A record whose request or answer is cut, or whose sandbox time was read apart.
    @inline(never)
    private mutating func appendUnusual(
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
        var shift: Int64 = 0
        if let sandboxStart {
            let since = Double(Int64(bitPattern: start &- monotonicAnchor)) / 1e9
            shift = Int64(((sandboxStart.timeIntervalSince(sandboxAnchor) - since) * 1e9).rounded())
        }
        let header = CallRecordHeader(
            key: key, start: start, duration: end &- start, sandboxShift: shift, requestCount: UInt32(request.count),
            answerCount: UInt32(answer.count), flags: flags.rawValue)
        withUnsafeBytes(of: header) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: request)
        bytes.append(contentsOf: answer)
    }

    /// Hands what is logged to the journal (at the end of each read, and before the log's profile
    /// or clocks change).
    package mutating func handOff(_ session: ConnectionSession) {
        guard !bytes.isEmpty else { return }
        recorder.take(
            CallChunk(
                profile: profile, connection: session.id, transport: session.transport, client: client,
                monotonicAnchor: monotonicAnchor, wallAnchor: wallAnchor, sandboxAnchor: sandboxAnchor,
                bytes: Array(bytes)))
        if bytes.capacity > 1 << 18 {
            bytes = []
        } else {
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Starts a new chunk: the connection's profile or a sandbox clock changed (or the chunk is full).
    @inline(never)
    private mutating func restart(session: ConnectionSession, sandbox: any SandboxAccess) {
        handOff(session)
        profileGeneration = session.profileGeneration.load(ordering: .acquiring)
        clockChanges = sandbox.activity.clockCount.load(ordering: .relaxed)
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
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
