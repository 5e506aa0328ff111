#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A method of the call journal (sandbox mode only; never journalled itself).
/// - Handlers: CallJournalHandlers
public protocol CallJournalMethod: RPCMethod {}

/// Lists the caller's profile's journal, oldest first, a page at a time (sandbox mode only).
///
/// Every call the gateway answered for the profile (method as called and as resolved, params and
/// answer with their secrets masked, connection, client, times on the sandbox and the wall clock,
/// duration, whether an idempotency key replayed it), every notification sent to its connections
/// and every HTTP exchange made for it. Entries are in the order they were journalled: a call when
/// it was answered. Follow `next` for the following page; `dropped` counts the entries the
/// journal's bound (`--calls-max`) let go since the last `sandbox.calls.clear`.
public enum SandboxCallsList: CallJournalMethod {
    public static let name = "sandbox.calls.list"
    public static let traits: MethodTraits = [.sandboxOnly, .unjournalled]
    public typealias Params = CallListParams
    public typealias Result = CallPage
}

/// Counts the caller's profile's journal entries that match (sandbox mode only).
public enum SandboxCallsCount: CallJournalMethod {
    public static let name = "sandbox.calls.count"
    public static let traits: MethodTraits = [.sandboxOnly, .unjournalled]
    public typealias Params = CallMatchParams
    public typealias Result = CallCount
}

/// The caller's profile's journal entries that match, oldest first (sandbox mode only).
public enum SandboxCallsFind: CallJournalMethod {
    public static let name = "sandbox.calls.find"
    public static let traits: MethodTraits = [.sandboxOnly, .unjournalled]
    public typealias Params = CallFindParams
    public typealias Result = CallEntries
}

/// Checks that the app made the calls a test expects (sandbox mode only).
///
/// With `match`: the matching entries number exactly `times`, at least `atLeast` or at most
/// `atMost` (exactly once when none is given). With `sequence`: an entry matches each in turn, in
/// the order they arrived (others may come between). Otherwise the answer is error -32010 whose
/// message says how many matched and where the nearest miss differed, and whose data lists the
/// three nearest misses with every pointer that differed.
public enum SandboxCallsVerify: CallJournalMethod {
    public static let name = "sandbox.calls.verify"
    public static let traits: MethodTraits = [.sandboxOnly, .unjournalled]
    public typealias Params = CallVerifyParams
    public typealias Result = CallVerification
    public static let errors = [
        RPCErrorDescriptor(
            code: .callsVerificationFailed, message: "Call verification failed", data: CallVerificationFailure.self,
            sampleData: ["expected": "exactly 1", "matched": 0, "nearestMisses": []])
    ]
}

/// Waits until the caller's profile's journal has `count` entries that match (sandbox mode only).
///
/// Answers as soon as they exist (at once when they do already): a delivery the app's call set off,
/// a notification, a call another connection or gateway makes. After `timeoutMs` without them, the
/// answer is error -32011 with how many matched and the nearest misses. No polling: the journal
/// wakes the wait when an entry of the profile arrives.
public enum SandboxCallsWait: CallJournalMethod {
    public static let name = "sandbox.calls.wait"
    public static let traits: MethodTraits = [.sandboxOnly, .unjournalled]
    public typealias Params = CallWaitParams
    public typealias Result = CallEntries
    public static let errors = [
        RPCErrorDescriptor(
            code: .callsWaitTimedOut, message: "Calls not seen in time", data: CallVerificationFailure.self,
            sampleData: ["expected": "at least 1", "matched": 0, "nearestMisses": []])
    ]
}

/// Empties the caller's profile's journal (sandbox mode only); no other profile's is touched.
public enum SandboxCallsClear: CallJournalMethod {
    public static let name = "sandbox.calls.clear"
    public static let traits: MethodTraits = [.mutates, .destructive, .sandboxOnly, .unjournalled]
    public typealias Params = NoParams
    public typealias Result = CallsCleared
}

/// Which page of the journal.
/// - SchemaName: CallListParams
public struct CallListParams: JSONModel, Equatable {
    /// Only entries of this method (canonical name or alias; `POST` for HTTP exchanges).
    /// - MinLength: 1
    /// - MaxLength: 200
    public var method: String?
    /// Only entries of this kind.
    public var kind: CallEntryKind?
    /// Only entries at or after this sandbox time.
    public var since: Date?
    /// Only entries before this sandbox time.
    public var until: Date?
    /// At most this many entries (default 100).
    /// - Minimum: 1
    /// - Maximum: 1000
    public var limit: Int?
    /// Where to go on: a page's `next`.
    /// - MinLength: 1
    /// - MaxLength: 100
    public var cursor: String?
}

/// One page of the journal.
/// - SchemaName: CallPage
public struct CallPage: JSONModel, Equatable {
    /// The entries, oldest first.
    public var entries: [CallEntry]
    /// The cursor after this page's last entry: pass it as `cursor` for the next page, now or
    /// later (what came since: `payrpc calls --follow` does). Absent when the page is empty and no
    /// cursor was given.
    public var next: String?
    /// Whether more entries than this page held were there to read.
    public var more: Bool
    /// How many entries the profile's journal holds now.
    public var total: Int
    /// How many entries its bound let go since it was last cleared (oldest first).
    public var dropped: Int
}

/// A match.
/// - SchemaName: CallMatchParams
public struct CallMatchParams: JSONModel, Equatable {
    /// Which entries.
    public var match: CallMatch
}

/// A match, and how many of its entries to answer.
/// - SchemaName: CallFindParams
public struct CallFindParams: JSONModel, Equatable {
    /// Which entries.
    public var match: CallMatch
    /// At most this many, the oldest (default 100).
    /// - Minimum: 1
    /// - Maximum: 1000
    public var limit: Int?
}

/// How many entries match.
/// - SchemaName: CallCount
public struct CallCount: JSONModel, Equatable {
    /// The number.
    public var count: Int
}

/// Entries.
/// - SchemaName: CallEntries
public struct CallEntries: JSONModel, Equatable {
    /// Oldest first.
    public var entries: [CallEntry]
}

/// What a test expects: a match and how many times (`times`, `atLeast`, `atMost`; exactly once
/// when none is given), or a `sequence` of matches in order.
/// - SchemaName: CallVerifyParams
public struct CallVerifyParams: JSONModel, Equatable {
    /// Which entries.
    public var match: CallMatch?
    /// Exactly this many.
    /// - Minimum: 0
    /// - Maximum: 100000
    public var times: Int?
    /// At least this many.
    /// - Minimum: 0
    /// - Maximum: 100000
    public var atLeast: Int?
    /// At most this many.
    /// - Minimum: 0
    /// - Maximum: 100000
    public var atMost: Int?
    /// Entries matching each of these, in the order they arrived, others allowed between.
    /// - MinItems: 1
    /// - MaxItems: 50
    public var sequence: [CallMatch]?
}

/// A verification that held.
/// - SchemaName: CallVerification
public struct CallVerification: JSONModel, Equatable {
    /// How many entries matched (for a sequence: its length).
    public var matched: Int
    /// The ids of the entries that matched (for a sequence: one per step).
    public var entries: [String]
}

/// What to wait for.
/// - SchemaName: CallWaitParams
public struct CallWaitParams: JSONModel, Equatable {
    /// Which entries.
    public var match: CallMatch
    /// How many must exist (default 1).
    /// - Minimum: 1
    /// - Maximum: 1000
    public var count: Int?
    /// How long to wait, in milliseconds of real time (default 5000).
    /// - Minimum: 0
    /// - Maximum: 600000
    public var timeoutMs: Int?
    /// Count only entries after this cursor (a page's `next` from `sandbox.calls.list`): what
    /// came since (`payrpc calls --follow` waits so).
    /// - MinLength: 1
    /// - MaxLength: 100
    public var after: String?
}

/// What a clear removed.
/// - SchemaName: CallsCleared
public struct CallsCleared: JSONModel, Equatable {
    /// How many entries.
    public var cleared: Int
}
