#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// What the engine and the handlers it calls need of the tester's controls: a profile's time and
/// seeded draws, the failure armed for a call, and the saving of what a call changed before it
/// answers. The controls themselves (the clock, the seeds, the armed failures and their JSON-RPC
/// methods) are `PayRPCSandbox`'s `SandboxControls`, the one implementation; the engine names only
/// this protocol, so that it builds without them.
///
/// What every call reads (whether a failure is armed, whether the call changed anything) is one
/// ``SandboxActivity`` object the engine keeps, read without a call through this protocol.
public protocol SandboxAccess: AnyObject, Sendable {
    /// The counters every call reads.
    var activity: SandboxActivity { get }
    /// Whether other gateways share the store: every call then runs as a task that reads its
    /// profile's documents first (``enter(profile:method:changesControls:drawsUnderLock:)``).
    var isShared: Bool { get }

    /// The profile's sandbox time: what every time-dependent rule reads (never `Date()`).
    func now(profile: String) -> Date
    /// The next 64 random bits of the profile's stream `stream`: deterministic under a seed, from
    /// the system's cryptographic generator otherwise.
    func next(profile: String, stream: String) -> UInt64
    /// `length` characters from `alphabet`, drawn from the profile's stream `stream`.
    func string(profile: String, stream: String, length: Int, alphabet: String) -> String
    /// Calls `observer(profile, now)` after every change of a profile's clock, on the thread that
    /// changed it (a handler's timers on the profile's clock fire what became due). Returns a token
    /// for ``removeClockObserver(_:)``.
    @discardableResult
    func onClockChange(_ observer: @escaping @Sendable (String, Date) -> Void) -> UInt64
    /// Stops calling an observer.
    func removeClockObserver(_ token: UInt64)

    /// Seeds the profile's generators (`rpc.hello {seed}`; nil: back to the server's seed).
    func seed(profile: String, _ seed: UInt64?)
    /// The seed in force for the profile, if any.
    func seed(profile: String) -> UInt64?
    /// On a shared store: saves a seed just set under the profile's lock and answers the seed
    /// the store has for it.
    func settleSeed(profile: String, changed: Bool) async throws -> UInt64?

    /// The failure armed for the profile's next call of `method` (a canonical name), taken; nil
    /// when none is. The engine reads it in one place (`RPCEngine+ArmedFailures`).
    func takeFailure(profile: String, method: String) -> RPCError?
    /// Saves every unsaved change (in one store transaction) before a call that made them answers.
    func saveChanges() async throws

    /// On a shared store: reads the profile's documents and, when the call may change them, takes
    /// the profile's lock across gateways (nil: no lock taken). Release it with
    /// ``exit(_:profile:)``.
    func enter(profile: String, method: String, changesControls: Bool, drawsUnderLock: Bool) async throws
        -> (any SandboxLease)?
    /// Releases a lock ``enter(profile:method:changesControls:drawsUnderLock:)`` took.
    func exit(_ lease: any SandboxLease, profile: String) async
}

/// The counts of the sandbox's state that every call reads (atomics, so reading them takes no
/// lock): how many failures are armed, how many profiles have unsaved changes, how many changes
/// were made. The controls keep them; the engine reads them directly.
public final class SandboxActivity: Sendable {
    /// How many failures are armed in all: lets every call skip the controls while none is.
    public let armedCount = Atomic<Int>(0)
    /// How many profiles have changes not yet saved.
    public let unsavedCount = Atomic<Int>(0)
    /// How many changes that need saving were made so far: a call compares it before and after its
    /// handler to know whether it changed anything itself (another call's change is that call's to
    /// save).
    public let changeCount = Atomic<UInt64>(0)
    /// How many times any profile's sandbox clock changed (moved, reset, read from the store): the
    /// call journal starts a new chunk of times when it moves.
    public let clockCount = Atomic<UInt64>(0)

    public init() {}

    /// Whether any profile has a failure armed.
    @inlinable
    public var hasArmedFailures: Bool { armedCount.load(ordering: .relaxed) > 0 }

    /// Whether some profile's state changed since it was last saved.
    @inlinable
    public var hasUnsavedChanges: Bool { unsavedCount.load(ordering: .relaxed) > 0 }

    /// ``changeCount``, read.
    @inlinable
    public var changes: UInt64 { changeCount.load(ordering: .relaxed) }
}

/// A profile's sandbox lock across gateways, held while a call may change its documents.
public protocol SandboxLease: Sendable {
    /// Releases the lock.
    func release() async
}

/// Which profile's sandbox lock the current task holds (shared stores): only its changes are
/// saved by the task's transactions, since another call's are that call's to save under its own
/// lock.
public enum SandboxLock {
    /// The profile whose lock the current task holds; nil: none.
    @TaskLocal public static var profile: String?
}
