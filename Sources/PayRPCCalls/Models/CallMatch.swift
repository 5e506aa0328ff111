import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Which journal entries a query or a verification is about: every condition given must hold.
/// - SchemaName: CallMatch
public struct CallMatch: JSONModel, Equatable {
    /// The method: for calls and notifications a JSON-RPC method (canonical name or alias; an
    /// alias matches the calls made under either name), for HTTP exchanges `GET`, `POST`, ...
    /// - MinLength: 1
    /// - MaxLength: 200
    /// - Example: "tatra.authorizePayment"
    public var method: String?
    /// What kind of entry.
    public var kind: CallEntryKind?
    /// A regular expression an HTTP exchange's URL must contain a match of.
    /// - MinLength: 1
    /// - MaxLength: 1000
    /// - Example: "/payments/"
    public var url: String?
    /// Conditions on the params (of an HTTP exchange: its request body), each at a JSON Pointer.
    /// - MaxItems: 50
    public var params: [CallCondition]?
    /// Conditions on the whole entry (`/error/code`, `/http/status`, `/result/status`), each at a JSON Pointer.
    /// - MaxItems: 50
    public var entry: [CallCondition]?
    /// Whether the call failed (answered with an error), or succeeded.
    public var failed: Bool?
}

/// One condition at a JSON Pointer: give exactly one of `equals`, `pattern`, `present` and `absent`.
/// - SchemaName: CallCondition
public struct CallCondition: JSONModel, Equatable {
    /// Where (RFC 6901): `/pin`, `/contact/email`, `/items/0/amount`; `""` is the whole value.
    /// - MaxLength: 500
    /// - Pattern: ^(/([^~]|~[01])*)*$
    /// - Example: "/pin"
    public var pointer: String
    /// The value there must equal this (a masked secret reads as its mask, `"***"`).
    public var equals: JSONValue?
    /// The value there must be a string containing a match of this regular expression.
    /// - MinLength: 1
    /// - MaxLength: 1000
    public var pattern: String?
    /// `true`: there must be a value there (a PIN given, even masked).
    public var present: Bool?
    /// `true`: there must be no value there.
    public var absent: Bool?
}
