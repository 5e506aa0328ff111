import Foundation
import PayRPCJSON

/// One document of a namespace, as ``StateStore/list(profile:namespace:keyPrefix:)`` returns it.
public struct StoredDocument: Sendable, Equatable {
    /// The document's key within its namespace.
    public var key: String
    /// The document.
    public var value: JSONValue
    /// When it was last written (millisecond precision).
    public var updatedAt: Date

    /// A document as stored.
    public init(key: String, value: JSONValue, updatedAt: Date) {
        self.key = key
        self.value = value
        self.updatedAt = updatedAt
    }
}
