#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCServiceKit
import PayRPCStore

/// Northstar's state in the store, behind intent-named methods: each profile's client
/// configuration (`northstar/config`), its orders (`northstar.orders`, by order id), their
/// authorizations (`northstar.authorizations`, by authorization id) and its nonces
/// (`northstar.nonces`, by the keyed hash of the nonce).
struct NorthstarBook: Sendable {
    let store: any StateStore

    /// Keeps the profile's client configuration.
    func saveConfiguration(_ configuration: ClientConfiguration, profile: String) async throws {
        try await store.transaction("northstar.configure") { documents in
            try documents.put(document: configuration, profile: profile)
        }
    }

    /// The profile's client configuration, if it has one.
    func configuration(profile: String) async throws -> ClientConfiguration? {
        try await store.read("northstar.configuration") { documents in
            try documents.document(ClientConfiguration.self, profile: profile)
        }
    }

    /// The profile's order `id`, if any.
    func order(_ id: String, profile: String) async throws -> StoredOrder? {
        try await store.read("northstar.order") { documents in
            try documents.get(StoredOrder.self, profile: profile, key: id)
        }
    }

    /// Keeps an order (new or changed) and the authorization its execution made, if any, together;
    /// durable when it returns.
    func save(_ order: StoredOrder, authorization: StoredAuthorization? = nil, profile: String) async throws {
        try await store.transaction("northstar.saveOrder") { documents in
            try documents.put(order, profile: profile, key: order.orderID)
            if let authorization {
                try documents.put(authorization, profile: profile, key: authorization.authorizationID)
            }
        }
    }

    /// Captures `amount` (nil: what remains) of the authorization `id` at `now`, closing it when
    /// `final`, and shows its new status on its order's transaction, in one transaction. Returns
    /// the authorization as it now is and the amount captured, or why the capture was refused
    /// (nothing is then written).
    func capture(
        _ id: String, amount: OrderMoney?, final: Bool, at now: Date,
        profile: String
    ) async throws -> Result<(StoredAuthorization, OrderMoney), CaptureRefusal> {
        try await store.transaction("northstar.captureAuthorization") { documents in
            guard var authorization = try documents.get(StoredAuthorization.self, profile: profile, key: id) else {
                return .failure(.notFound)
            }
            let captured: OrderMoney
            do throws(CaptureRefusal) {
                captured = try authorization.capture(amount, final: final, at: now)
            } catch {
                return .failure(error)
            }
            try documents.put(authorization, profile: profile, key: id)
            try documents.update(StoredOrder.self, profile: profile, key: authorization.orderID) { order in
                order?.transaction?.status = authorization.status
                order?.updateTime = now
            }
            return .success((authorization, captured))
        }
    }

    /// Keeps a new nonce under the keyed hash of its value.
    func saveNonce(_ nonce: StoredNonce, key: String, profile: String) async throws {
        try await store.transaction("northstar.tokenizeCard") { documents in
            try documents.put(nonce, profile: profile, key: key)
        }
    }

    /// Uses up the nonce stored under `key`: its card when it is known, unused and not expired at
    /// `now`, and nil otherwise (it is then marked used, in the same transaction).
    func useNonce(key: String, profile: String, now: Date) async throws -> StoredNonce? {
        try await store.transaction("northstar.useNonce") { documents in
            try documents.update(StoredNonce.self, profile: profile, key: key) { stored in
                guard let current = stored, !current.used, now < current.expiresAt else { return nil }
                stored?.used = true
                return current
            }
        }
    }
}
