import PayRPCCore
import PayRPCJSON

/// What every backend stores the same way: the contexts under which idempotency records are
/// sealed and hashed, the answer of a record that cannot be opened, and a profile's documents as
/// one export value: one definition that the SQLite and the PostgreSQL store both use.
package enum StoredRecords {
    /// The associated data of sealed outcomes.
    package static let outcomeContext = "idempotency.outcome"
    /// The context of the params' keyed hash.
    package static let paramsContext = "idempotency.params"

    /// What a repeat of a call answers when the first answer was kept but cannot be given back
    /// (sealed by an earlier version, or altered): -32005, as for any key that cannot be replayed,
    /// saying that the call already ran.
    package static var unavailableOutcome: String {
        let error = RPCError(
            .idempotencyConflict, "Idempotency answer unavailable",
            data: [
                "detail": .string(
                    "a call with this key already ran; its answer was kept in a form this server cannot read "
                        + "(an earlier version's, or altered), so it is not run again: use a new key to call anew")
            ])
        return String(decoding: error.responseMember, as: UTF8.self)
    }

    /// `{namespace: {key: value}}` of a profile's documents, given as (namespace, key, text)
    /// ordered by namespace and key: what every store's ``export(profile:)`` answers.
    /// - Throws: ``StoreError`` for a document that is not JSON.
    package static func exported(_ rows: [(String, String, String)]) throws -> JSONValue {
        var namespaces: [JSONValue.Member] = []
        var current: (name: String, members: [JSONValue.Member])?
        for (namespace, key, text) in rows {
            if current?.name != namespace {
                if let current { namespaces.append(.init(current.name, .object(current.members))) }
                current = (namespace, [])
            }
            current?.members.append(.init(key, try parse(text, namespace: namespace, key: key)))
        }
        if let current { namespaces.append(.init(current.name, .object(current.members))) }
        return .object(namespaces)
    }

    /// A stored document's JSON text as a value.
    package static func parse(_ text: String, namespace: String, key: String) throws(StoreError) -> JSONValue {
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw StoreError(.corrupt, "the stored document \(namespace)/\(key) is not valid JSON (\(error))")
        }
    }
}
