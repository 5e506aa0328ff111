/// Checks of the names that scope a document, before they reach the database (whose schema
/// checks the same limits).
package enum StoreArguments {
    /// The longest profile or namespace name, in characters.
    package static let maximumNameLength = 256
    /// The longest document or idempotency key, in characters.
    package static let maximumKeyLength = 1024

    /// - Throws: ``StoreError`` (`invalidArgument`) naming the first bad argument.
    package static func check(profile: String, namespace: String? = nil, key: String? = nil) throws(StoreError) {
        try checkName(profile, "profile", maximum: maximumNameLength)
        if let namespace { try checkName(namespace, "namespace", maximum: maximumNameLength) }
        if let key { try checkName(key, "key", maximum: maximumKeyLength) }
    }

    /// - Throws: ``StoreError`` (`invalidArgument`) when `value` is empty, too long or holds NUL.
    package static func checkName(_ value: String, _ what: String, maximum: Int) throws(StoreError) {
        if value.isEmpty { throw StoreError(.invalidArgument, "the \(what) must not be empty") }
        // A character is at least one UTF-8 byte: count characters only when the bytes could be too many.
        if value.utf8.count > maximum && value.count > maximum {
            throw StoreError(.invalidArgument, "the \(what) is longer than \(maximum) characters")
        }
        if value.utf8.contains(0) { throw StoreError(.invalidArgument, "the \(what) must not contain NUL") }
    }
}
