import PayRPCJSON

extension JSONDecodable {
    /// The model `text` decodes to: a starting value for params built member by member.
    /// - Precondition: `text` decodes (a literal in the code: a failure is a bug, found by any run).
    static func decoded(from text: String) -> Self {
        do {
            return try JSONTape(string: text).withRoot { element throws(JSONDecodingError) in try Self(json: element) }
        } catch {
            preconditionFailure("\(Self.self) does not decode from \(text): \(error)")
        }
    }
}
