extension JSONValue {
    /// The value a JSON Pointer (RFC 6901) names in this value: `""` is the whole value, `/a/0/b`
    /// the member `b` of the first element of the member `a`; `~1` stands for `/` and `~0` for `~`
    /// in a member's name. Nil when nothing is there (or `pointer` is not a pointer).
    ///
    /// For an answer whose shape a user configures (where an outside API puts an id).
    public func value(at pointer: String) -> JSONValue? {
        guard !pointer.isEmpty else { return self }
        guard pointer.hasPrefix("/") else { return nil }
        var current = self
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = JSONPointer.unescape(raw)
            switch current {
            case .object(let members):
                guard let member = members.first(where: { $0.name == token }) else { return nil }
                current = member.value
            case .array(let elements):
                guard let index = Int(token), String(index) == token, elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}
