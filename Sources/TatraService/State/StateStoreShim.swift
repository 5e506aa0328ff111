// TEMPORARY: the part of PayRPCStore's `StateStore` tatra uses, until the store branch lands.
import PayRPCJSON

public protocol StateStore: Sendable {
    func get(profile: String, namespace: String, key: String) async throws -> JSONValue?
    func delete(profile: String, namespace: String, key: String) async throws
    func update<R: Sendable>(
        profile: String, namespace: String, key: String,
        _ transform: @escaping @Sendable (JSONValue?) throws -> (JSONValue?, R)
    ) async throws -> R
}
