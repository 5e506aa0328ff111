import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Why `sandbox.calls.verify` or `sandbox.calls.wait` failed: what was expected, how many
/// entries matched, and the entries that came nearest, each with where it differed.
/// - SchemaName: CallVerificationFailure
public struct CallVerificationFailure: JSONModel, Equatable {
    /// What was expected (`exactly 1`, `at least 2`, `step 2 of 3 of the sequence`).
    public var expected: String
    /// How many entries matched (for a sequence: how many steps were found in order).
    public var matched: Int
    /// For a sequence: the step (from 0) that no entry after the previous step's matched.
    public var step: Int?
    /// The entries that matched (at most 20 ids), when there were too many.
    public var entries: [String]?
    /// Up to three entries nearest to the match, nearest first.
    public var nearestMisses: [CallMiss]
}

/// An entry that did not match, and where.
/// - SchemaName: CallMiss
public struct CallMiss: JSONModel, Equatable {
    /// The entry's id.
    public var entry: String
    /// Its method.
    public var method: String?
    /// Every place it differed from the match.
    public var differences: [CallDifference]
}

/// One place an entry differed from a match.
/// - SchemaName: CallDifference
public struct CallDifference: JSONModel, Equatable {
    /// Where, in the entry (`/params/pin`, `/method`).
    public var pointer: String
    /// What the match asked for there (`equals "1234"`, `present`, `matches ^Tea`).
    public var expected: String
    /// What the entry holds there (absent: nothing).
    public var actual: JSONValue?
}
