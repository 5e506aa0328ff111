import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Where ``SandboxControls`` keep each profile's sandbox state so that it outlives the process:
/// its clock offset, its generator's seed and positions, its armed failures. The store is the
/// truth; the controls hold a cache of it, read once at start-up (``SandboxControls/restore(_:)``)
/// and written through before any call that changed it answers.
///
/// Declared in the core so the engine can save what a call changed without knowing the storage;
/// `PayRPCStore` implements it on any `StateStore` (and also writes the changes inside a service's
/// own transaction, so a call that draws an id and stores it commits once).
public protocol SandboxPersistence: Sendable {
    /// Writes `changes` in one durable transaction.
    /// - Throws: the store's error; nothing is written then.
    func save(_ changes: [SandboxChange]) async throws

    /// Whether other gateways share the store, and so each profile's sandbox state: the controls
    /// then read a profile's documents before each of its calls and lock it across gateways for
    /// the calls that change them
    /// (``SandboxControls/enter(profile:method:changesControls:drawsUnderLock:)``).
    var sharesState: Bool { get }

    /// The profile's stored documents as they are now (shared stores only).
    /// - Throws: the store's error.
    func load(profile: String) async throws -> StoredSandboxState

    /// Takes the profile's sandbox lock, waiting while a call on any gateway holds it, and returns
    /// it held (shared stores only). A gateway that dies releases its locks with its connections.
    /// - Throws: the store's error; no lock is held then.
    func lock(profile: String) async throws -> any SandboxLease
}

extension SandboxPersistence {
    /// An embedded store: one gateway owns it, so its cache is the truth.
    public var sharesState: Bool { false }

    public func load(profile: String) async throws -> StoredSandboxState { StoredSandboxState() }

    public func lock(profile: String) async throws -> any SandboxLease { UnsharedSandboxLease() }
}

/// The lease of a store no other gateway shares: nothing to hold.
public struct UnsharedSandboxLease: SandboxLease {
    /// A lease of nothing.
    public init() {}

    public func release() async {}
}

/// What changed in one profile's sandbox state since it was last saved: each document that
/// changed, as it is now, with the versions it was taken at (``SandboxControls/markSaved(_:)``).
public struct SandboxChange: Sendable {
    /// The profile.
    public let profile: String
    /// The clock's document, when the clock moved.
    public let clock: SandboxClockDocument?
    /// The generator's document, when the seed changed or a seeded stream was drawn from.
    public let generator: SandboxGeneratorDocument?
    /// The armed failures' document, when a failure was armed or taken.
    public let failures: SandboxFailuresDocument?
    let versions: SandboxVersions
}

/// The store namespace and keys of a profile's sandbox documents.
public enum SandboxDocumentKey {
    /// The namespace of every sandbox document of a profile.
    public static let namespace = "sandbox"
    /// The clock's offset.
    public static let clock = "clock"
    /// The generator's seed and positions.
    public static let generator = "generator"
    /// The armed failures.
    public static let failures = "failures"
}

/// A profile's sandbox clock as stored (`sandbox/clock`).
public struct SandboxClockDocument: JSONModel, Equatable {
    /// How far the profile's time is ahead of real time, in seconds (0 or more).
    public var offsetSeconds: Double

    /// The document of an offset.
    public init(offsetSeconds: Double) {
        self.offsetSeconds = offsetSeconds
    }
}

/// A profile's generator as stored (`sandbox/generator`): the seed its values were drawn under and
/// how many values each seeded stream has given.
public struct SandboxGeneratorDocument: JSONModel, Equatable {
    /// The seed in force (its bits as a signed integer); nil: unseeded.
    public var seed: Int64?
    /// Whether the profile set the seed itself (`rpc.hello {seed}`) rather than inheriting the
    /// server's (`serve --seed`): an inherited seed's positions hold only under the same server seed.
    public var explicit: Bool
    /// Values drawn so far, by stream name.
    public var streams: [String: Int64]

    /// The document of a seed and its streams' positions.
    public init(seed: Int64?, explicit: Bool, streams: [String: Int64]) {
        self.seed = seed
        self.explicit = explicit
        self.streams = streams
    }
}

/// A profile's armed failures as stored (`sandbox/failures`), in the order they are taken.
public struct SandboxFailuresDocument: JSONModel, Equatable {
    /// The failures, oldest first.
    public var armed: [ArmedFailureDocument]

    /// The document of a list of failures.
    public init(armed: [ArmedFailureDocument]) {
        self.armed = armed
    }
}

/// One armed failure as stored: the method, the error as it will be sent, and how many more calls
/// it fails.
public struct ArmedFailureDocument: JSONModel, Equatable {
    /// The method's canonical name.
    public var method: String
    /// The error's code.
    public var code: Int
    /// The error's message.
    public var message: String
    /// The error's `data`.
    public var data: JSONValue?
    /// How many more calls it fails (1 or more).
    public var remaining: Int

    /// The document of a failure.
    public init(method: String, code: Int, message: String, data: JSONValue?, remaining: Int) {
        self.method = method
        self.code = code
        self.message = message
        self.data = data
        self.remaining = remaining
    }
}

/// A profile's stored sandbox documents, as read at start-up.
public struct StoredSandboxState: Sendable {
    /// `sandbox/clock`, if stored.
    public var clock: SandboxClockDocument?
    /// `sandbox/generator`, if stored.
    public var generator: SandboxGeneratorDocument?
    /// `sandbox/failures`, if stored.
    public var failures: SandboxFailuresDocument?

    /// The documents read.
    public init(
        clock: SandboxClockDocument? = nil, generator: SandboxGeneratorDocument? = nil,
        failures: SandboxFailuresDocument? = nil
    ) {
        self.clock = clock
        self.generator = generator
        self.failures = failures
    }
}

/// The versions of a profile's three documents a ``SandboxChange`` was taken at.
struct SandboxVersions: Sendable, Equatable {
    var clock: UInt64 = 0
    var generator: UInt64 = 0
    var failures: UInt64 = 0
}
