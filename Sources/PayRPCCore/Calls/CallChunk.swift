#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The calls one connection answered, as the engine copied them on the request path: each call's
/// request object and its answer, byte for byte, with its key and times. Nothing is parsed or
/// masked here; the journal does that when it is read (docs/calls.md, "Cost").
///
/// One profile, one client and one set of clock anchors per chunk: the session starts a new one
/// when the connection's profile or any sandbox clock changes.
/// `@unchecked Sendable`: its bytes are written before it is made and only read after.
public final class CallChunk: @unchecked Sendable {
    /// The profile whose journal the calls belong to.
    public let profile: String
    /// The connection's id and how it is connected.
    public let connection: UInt64
    public let transport: TransportKind
    /// The client named in `rpc.hello`, if any.
    public let client: String?
    /// The chunk's anchors: the monotonic time (ns) when it started, and the wall clock's and the
    /// profile's sandbox clock's times then. A call's times are these plus its offset.
    let monotonicAnchor: UInt64
    let wallAnchor: Date
    let sandboxAnchor: Date
    /// The records: a ``CallRecordHeader``, then the request's bytes, then the answer's. The log's
    /// own buffer, handed over (copying it cost more than allocating the log a new one).
    private let storage: UnsafeMutableRawPointer
    private let byteCount: Int
    /// How many records.
    public let count: Int

    /// The records in `storage` (`byteCount` bytes, now the chunk's: it frees them).
    init(
        profile: String, connection: UInt64, transport: TransportKind, client: String?, monotonicAnchor: UInt64,
        wallAnchor: Date, sandboxAnchor: Date, storage: UnsafeMutableRawPointer, byteCount: Int, count: Int
    ) {
        self.count = count
        self.storage = storage
        self.byteCount = byteCount
        self.profile = profile
        self.connection = connection
        self.transport = transport
        self.client = client
        self.monotonicAnchor = monotonicAnchor
        self.wallAnchor = wallAnchor
        self.sandboxAnchor = sandboxAnchor
    }

    deinit { storage.deallocate() }

    private var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: byteCount) }

    /// Where each record starts, in the order they were answered.
    public var recordOffsets: [Int] {
        var offsets: [Int] = []
        var offset = 0
        while offset + CallRecordHeader.size <= bytes.count {
            offsets.append(offset)
            let header = CallRecordHeader.read(bytes, at: offset)
            offset += CallRecordHeader.size + Int(header.requestCount) + Int(header.answerCount)
        }
        return offsets
    }

    /// The record at `offset` (one of ``recordOffsets``); `frozen`: real time stands still
    /// (`serve --frozen-clock`), so no time passed since the chunk's anchors and no call took any.
    public func record(at offset: Int, frozen: Bool = false) -> CallRecord {
        let header = CallRecordHeader.read(bytes, at: offset)
        let requestStart = offset + CallRecordHeader.size
        let answerStart = requestStart + Int(header.requestCount)
        let elapsed = Double(Int64(bitPattern: header.start &- monotonicAnchor)) / 1e9
        let since = frozen ? 0 : elapsed
        var flags = CallRecordFlags(rawValue: header.flags)
        var duration = header.duration
        if flags.contains(.endsAtNext) {
            // Answered inline and followed by another call answered inline: it ended when that
            // one started (the log writes no end for it, ``CallLog/appendAnswered(start:request:output:from:)``).
            flags.remove(.endsAtNext)
            let next = answerStart + Int(header.answerCount)
            if next + CallRecordHeader.size <= bytes.count {
                duration = CallRecordHeader.read(bytes, at: next).start &- header.start
            }
        }
        return CallRecord(
            // A key as the log wrote it, or its number alone (a call answered inline).
            key: CallKey.make(connection: connection, number: header.key),
            wallStart: wallAnchor.addingTimeInterval(since),
            sandboxStart: CallRecordFlags(rawValue: header.flags).contains(.ownSandboxTime)
                ? Date(timeIntervalSince1970: header.sandboxTime) : sandboxAnchor.addingTimeInterval(since),
            arrival: wallAnchor.addingTimeInterval(elapsed),
            duration: frozen ? 0 : Double(duration) / 1e9,
            request: Array(bytes[requestStart..<answerStart]),
            answer: Array(bytes[answerStart..<answerStart + Int(header.answerCount)]),
            flags: flags)
    }
}

/// One call of a ``CallChunk``, read back.
public struct CallRecord: Sendable {
    /// The call's key (``CallKey``).
    public let key: UInt64
    /// When it arrived, on the wall clock and on the profile's sandbox clock.
    public let wallStart: Date
    public let sandboxStart: Date
    /// When it really arrived, on the wall clock (even under `--frozen-clock`): what orders calls
    /// whose sandbox times are equal.
    public let arrival: Date
    /// How long it took to answer, in seconds.
    public let duration: Double
    /// The request object as received (or, over the journal's limit, a stand-in naming its method:
    /// ``CallRecordFlags/requestCut``).
    public let request: [UInt8]
    /// The answer: a whole response object, or its outcome member (``CallRecordFlags/outcomeMember``);
    /// empty for a notification.
    public let answer: [UInt8]
    /// How to read it.
    public let flags: CallRecordFlags
}

/// How a ``CallRecord`` reads.
public struct CallRecordFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The answer is `"result":…` or `"error":…` (a call answered by a task), not a response object.
    public static let outcomeMember = CallRecordFlags(rawValue: 1 << 0)
    /// An idempotency key replayed a stored answer.
    public static let replayed = CallRecordFlags(rawValue: 1 << 1)
    /// The request was over the journal's limit: ``CallRecord/request`` is a stand-in.
    public static let requestCut = CallRecordFlags(rawValue: 1 << 2)
    /// The answer was over the journal's limit and is left out.
    public static let answerCut = CallRecordFlags(rawValue: 1 << 3)
    /// The line was refused before a request was read from it (not JSON, not a request object):
    /// ``CallRecord/request`` is `{"lineBytes":N}`, never the line's bytes.
    public static let refusedLine = CallRecordFlags(rawValue: 1 << 4)
    /// The record carries its own sandbox time (a call that ran as a task read its clock when it
    /// left its line), not one reckoned from the chunk's anchor.
    public static let ownSandboxTime = CallRecordFlags(rawValue: 1 << 5)
    /// In a chunk's bytes only (never in a ``CallRecord``): the call ends when the next record
    /// starts; its duration is reckoned when it is read.
    static let endsAtNext = CallRecordFlags(rawValue: 1 << 6)
}

/// The fixed part of a record in a chunk's bytes.
struct CallRecordHeader {
    /// The call's key (``CallKey``), or its number alone: the chunk's connection is the rest.
    var key: UInt64
    /// Monotonic ns when the call arrived.
    var start: UInt64
    /// ns it took.
    var duration: UInt64
    /// The profile's sandbox time when the call arrived, in seconds since 1970, when it read its
    /// clock itself (a call that ran as a task: ``CallRecordFlags/ownSandboxTime``); else 0.
    var sandboxTime: Double
    var requestCount: UInt32
    var answerCount: UInt32
    var flags: UInt32
    var unused: UInt32 = 0

    static let size = MemoryLayout<CallRecordHeader>.size
    /// Where the fields are, for the log that stores them one by one
    /// (``CallLog/appendAnswered(start:request:output:from:)``). Constants:
    /// `MemoryLayout.offset(of:)` reads a key path at run time; ``layoutHolds`` checks them.
    static let keyOffset = 0, startOffset = 8, durationOffset = 16, sandboxTimeOffset = 24
    /// `requestCount` and `answerCount`, stored as one `UInt64`; then `flags` and `unused`, as one.
    static let countsOffset = 32, flagsOffset = 40

    /// Whether the offsets above are the struct's.
    static var layoutHolds: Bool {
        let layout = MemoryLayout<CallRecordHeader>.self
        return [\CallRecordHeader.key, \.start, \.duration, \.sandboxTime, \.requestCount, \.answerCount, \.flags, \.unused]
            .map { layout.offset(of: $0) }
            == [
                keyOffset, startOffset, durationOffset, sandboxTimeOffset, countsOffset, countsOffset + 4, flagsOffset,
                flagsOffset + 4,
            ]
            && size == 48
    }

    static func read(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> CallRecordHeader {
        bytes.loadUnaligned(fromByteOffset: offset, as: CallRecordHeader.self)
    }
}
