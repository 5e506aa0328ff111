import PayRPCJSON

/// A model whose generated decoder checks the rules of its schema while it reads: one pass over
/// the request's bytes, where the engine otherwise walks the params twice (the validator, then
/// the codec).
///
/// `payrpc-codegen` writes ``checking(_:)`` for every model whose schema it can check as it
/// decodes (types, required members under any of their spellings, `additionalProperties`,
/// patterns and formats, lengths, ranges, item counts, enums, the amount's digits), and the
/// engine takes that path for every method whose params conform. Two promises, which the
/// `decoders` fuzz target checks against the validator and the codec on arbitrary input:
/// - it never accepts a value that the model's schema or its codec refuses;
/// - what it accepts, it reads into the same model as ``JSONDecodable/init(json:)``.
///
/// It may refuse more than the two do (a number written `1.0` for an integer, say): nil only
/// means "ask the validator". On nil the engine runs the validator's reporting walk and answers
/// its violations, or, when there are none, what the codec says; so an invalid request hears
/// exactly what it heard before, from the one implementation of the violation messages.
public protocol CheckedJSONDecodable: JSONDecodable {
    /// The model read from `json`, or nil when `json` breaks a rule of the model's schema or the
    /// codec would refuse it (or the decoder cannot tell cheaply that it does not).
    static func checking(_ json: JSONElement) -> Self?
}

extension NoParams: CheckedJSONDecodable {
    /// `{}` (the engine turns absent params into it; positions were mapped onto names before).
    /// Inlinable: the methods without params (`rpc.health` among them) check theirs in place.
    @inlinable
    public static func checking(_ json: JSONElement) -> NoParams? {
        guard json.kind == .object, json.count == 0 else { return nil }
        return NoParams()
    }
}
