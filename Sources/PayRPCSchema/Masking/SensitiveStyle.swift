import PayRPCJSON

/// How a secret is masked: whole (`"x-sensitive": true`: a PIN, a security code, a token) or all
/// but its last four characters (`"x-sensitive": "last4"`: a card number).
///
/// A model declares it with the doc tag `- Sensitive` or `- Sensitive: last4` (`payrpc-codegen`
/// writes the keyword); ``SensitiveMask`` reads it back and applies it. A struct of constants
/// rather than an enum, so that a third style (the first six and last four digits of a PAN) is
/// one more constant, not a change every `switch` must follow.
public struct SensitiveStyle: Hashable, Sendable, CustomStringConvertible {
    /// The schema keyword that declares a secret.
    public static let keyword = "x-sensitive"
    /// The text that stands for a secret masked whole.
    public static let wholeText = "***"
    /// The text that stands for the masked part of a card number.
    public static let hiddenText = "****"
    /// How many characters ``last4`` keeps.
    public static let keptCharacters = 4
    /// The shortest string ``last4`` keeps characters of: a shorter one would show half of
    /// itself or more, so it is masked whole (`"****"`).
    public static let shortestKeeping = 8

    /// A secret masked whole: the string `"***"`, whatever the value was.
    public static let whole = SensitiveStyle(rank: 2, name: "whole")
    /// A card number or the like: `"****"` followed by its last four characters.
    public static let last4 = SensitiveStyle(rank: 1, name: "last4")

    /// Which of two styles wins where a position is declared both ways (the stricter one).
    let rank: Int
    /// The style's name, as ``description`` gives it.
    let name: String

    private init(rank: Int, name: String) {
        self.rank = rank
        self.name = name
    }

    /// The style a value of ``keyword`` declares: `true` is ``whole``, `"last4"` is ``last4``; nil
    /// for anything else (which the generator refuses and the gateway's schema test reports).
    public init?(schemaValue: JSONValue) {
        switch schemaValue {
        case .bool(true): self = .whole
        case .string("last4"): self = .last4
        default: return nil
        }
    }

    /// The value of ``keyword`` that declares this style.
    public var schemaValue: JSONValue { self == .last4 ? .string("last4") : .bool(true) }

    public var description: String { name }

    /// `value` masked in this style. `null` stays `null`: it holds no secret, and a journal that
    /// shows `"***"` for an absent token would say one was sent. ``last4`` keeps the last four
    /// characters of a string (or of a number's digits) of at least eight characters; anything
    /// else it masks to `"****"`.
    public func masked(_ value: JSONValue) -> JSONValue {
        if case .null = value { return .null }
        guard self == .last4 else { return .string(Self.wholeText) }
        switch value {
        case .string(let text), .number(let text):
            guard text.count >= Self.shortestKeeping else { return .string(Self.hiddenText) }
            return .string(Self.hiddenText + text.suffix(Self.keptCharacters))
        default:
            return .string(Self.hiddenText)
        }
    }

    /// The stricter of two styles (either may be absent).
    static func stricter(_ a: SensitiveStyle?, _ b: SensitiveStyle?) -> SensitiveStyle? {
        guard let a else { return b }
        guard let b else { return a }
        return a.rank >= b.rank ? a : b
    }
}
