import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Makes the next call(s) of a method fail with one of the errors it declares (sandbox mode only).
///
/// One mechanism for every service: the engine answers an armed call with the error before its
/// handler runs, so nothing of the call happens (no state changes, no notification). Name the error
/// by its `data.type` (`general`, `requestExpired`, `INSTRUMENT_DECLINED`), by its message, or
/// by its code; members of `data` you give replace the declared sample's, so an error can carry a
/// title and a message of your own (the Tatra document lets the bank side create errors of its own),
/// and the result is checked against the error's data schema. Failures armed for one method are
/// taken in order by its next calls on any connection of the caller's profile; `sandbox.reset`
/// forgets them. `sandbox.tatra.failNextCall` is the Tatra-shaped spelling of the same mechanism.
public enum SandboxFailNext: SandboxControlMethod {
    public static let name = "sandbox.failNext"
    public static let traits: MethodTraits = [.runsInline, .mutates, .sandboxOnly, .changesSandboxControls]

    /// Tatra's own spelling, kept so that tests written against it still run: its params
    /// (`{method, error}` with `error` one of `general`, `serviceUnavailable`, `network`) are a
    /// subset of these.
    public static let aliases = ["sandbox.tatra.failNextCall"]
    public typealias Params = FailNextParams
    public typealias Result = FailNextResult
}

/// Which calls fail, and how.
/// - SchemaName: FailNextParams
public struct FailNextParams: JSONModel, Equatable {
    /// The method whose next calls fail, by canonical name or alias.
    /// - MinLength: 1
    /// - MaxLength: 200
    /// - Example: "tatra.fetchSetupData"
    public var method: String
    /// The error's name: its `data.type` or its message. Give this or `code`.
    /// - MinLength: 1
    /// - MaxLength: 200
    /// - Example: "general"
    public var error: String?
    /// The error's code. Give this or `error`.
    public var code: Int?
    /// The message to send instead of the declared one.
    /// - MaxLength: 1000
    public var message: String?
    /// Members of the error's `data` that replace the declared sample's (for example a `title` and
    /// a `message` of the bank's own).
    public var data: JSONValue?
    /// How many of the next calls fail (default 1).
    /// - Minimum: 1
    /// - Maximum: 1000
    public var count: Int?
}

/// What is armed.
/// - SchemaName: FailNextResult
public struct FailNextResult: JSONModel, Equatable {
    /// The method's canonical name.
    public var method: String
    /// The code the calls will fail with.
    public var code: Int
    /// The message they will carry.
    public var message: String
    /// How many calls of the method are now armed to fail, in all.
    public var armed: Int
}
