import Foundation
import PayRPCStore
import PayRPCSecrets

/// The PBBA service's state in the store, behind intent-named methods.
///
/// - Payment requests belong to the merchant backend, which every device (connection) shares: they
///   live in the store profile ``backendProfile``, namespace `pbba.requests`, keyed by a hash of
///   the secureToken (the token is never stored); `pbba.brns` maps a code to its request while the
///   code is valid.
/// - The device belongs to the connection's profile: `pbba.device` / `bankApps` (how many
///   PBBA-enabled bank apps the sandbox device has) and `pbba.userDefaults` /
///   `com.zapp.bankapp.remembered` (the library's remembered flag, which it keeps in the merchant
///   app's NSUserDefaults).
struct PBBAStateBook: Sendable {
    /// The store profile of the merchant backend's payment requests.
    static let backendProfile = "pbba-merchant-backend"
    /// Payment requests.
    static let requestsNamespace = "pbba.requests"
    /// Code → request.
    static let brnsNamespace = "pbba.brns"
    /// The sandbox device.
    static let deviceNamespace = "pbba.device"
    /// The merchant app's NSUserDefaults, as far as the library uses them.
    static let userDefaultsNamespace = "pbba.userDefaults"
    /// The key under which the library remembers that the Consumer tapped "Open banking app"
    /// (document section 3.5).
    static let rememberedKey = "com.zapp.bankapp.remembered"
    /// The key of the installed bank app count.
    static let bankAppsKey = "bankApps"
    /// The store's event channel of decisions (``PaymentDecision``).
    static let decisionsChannel = "pbba.decided"

    let store: any StateStore
    /// The server's keyed hasher: a request's store key is the keyed hash of its secureToken.
    let secrets: SecretHasher
    let defaultBankApps: Int

    /// The store key of the request a secureToken identifies.
    func requestKey(for secureToken: String) throws -> String {
        try secrets.keyedHash(secureToken, context: "pbba.secureToken")
    }

    // MARK: Payment requests

    /// The request stored under `key`.
    func record(key: String) async throws -> PaymentRequestRecord? {
        try await store.read("pbba.paymentRequest") { documents in
            try Self.record(key: key, in: documents)
        }
    }

    /// Stores a new request under a secureToken no request has (drawn by `newToken`) with a code
    /// no live request uses (drawn by `newBRN`). A drawn token can be taken when a seeded stream
    /// starts again (`sandbox.reset`, a seeded server on an old data directory): the next is drawn.
    /// Each token is one store transaction: the check that no request has it, the code's claim and
    /// the request are written together or not at all (one commit for the whole call).
    /// Returns the token and the record with its code.
    /// - Throws: ``PBBAError`` `requestGenerationFailed` when eight tokens or codes in a row are taken.
    func create(
        record template: PaymentRequestRecord, now: Date, newToken: () -> String,
        newBRN: @escaping @Sendable () -> String
    ) async throws -> (secureToken: String, record: PaymentRequestRecord) {
        enum Attempt: Sendable {
            case created(PaymentRequestRecord)
            case tokenTaken
            case noCode
        }
        for _ in 1...8 {
            let secureToken = newToken()
            let key = try requestKey(for: secureToken)
            let attempt = try await store.transaction("pbba.createPaymentRequest") { documents -> Attempt in
                guard try Self.record(key: key, in: documents) == nil else { return .tokenTaken }
                var record = template
                for _ in 1...8 {
                    let brn = newBRN()
                    guard try Self.claim(brn: brn, for: key, until: record.expiresAt, now: now, in: documents) else { continue }
                    record.brn = brn
                    try documents.put(record, profile: Self.backendProfile, namespace: Self.requestsNamespace, key: key)
                    return .created(record)
                }
                return .noCode
            }
            switch attempt {
            case .created(let record): return (secureToken, record)
            case .tokenTaken: continue
            case .noCode: throw PBBAError.requestGenerationFailed()
            }
        }
        throw PBBAError.requestGenerationFailed()
    }

    /// The request stored under `key`, as `documents` sees it.
    private static func record(key: String, in documents: some StoreReading) throws -> PaymentRequestRecord? {
        try documents.get(PaymentRequestRecord.self, profile: backendProfile, namespace: requestsNamespace, key: key)
    }

    /// Points `brn` at the request under `key` until `expiresAt` in `documents`, unless a request
    /// still in its retrieval period has it. Returns whether it did.
    private static func claim(
        brn: String, for key: String, until expiresAt: Date, now: Date,
        in documents: StoreTransaction
    ) throws -> Bool {
        try documents.update(BRNIndexEntry.self, profile: backendProfile, namespace: brnsNamespace, key: brn) { current in
            if let existing = current, existing.expiresAt > now { return false }
            current = BRNIndexEntry(requestKey: key, expiresAt: expiresAt)
            return true
        }
    }

    /// Stores a request another backend made, under its own code, in one store transaction.
    /// - Throws: ``PBBAError`` `secureTokenInUse` when the token is known, `brnInUse` when a live
    ///   request has the code.
    func register(secureToken: String, record: PaymentRequestRecord, now: Date) async throws {
        let key = try requestKey(for: secureToken)
        try await store.transaction("pbba.registerPaymentRequest") { documents in
            if let existing = try Self.record(key: key, in: documents) {
                throw PBBAError.secureTokenInUse(requestId: existing.requestId)
            }
            guard try Self.claim(brn: record.brn, for: key, until: record.expiresAt, now: now, in: documents) else {
                throw PBBAError.brnInUse(record.brn)
            }
            try documents.put(record, profile: Self.backendProfile, namespace: Self.requestsNamespace, key: key)
        }
    }

    /// Atomically changes the request under `key` as the bank app's decision, and publishes the
    /// status it then has (``onDecision(_:)``) in the same transaction.
    /// - Throws: ``PBBAError`` `paymentRequestNotFound`, or what `decide` throws (nothing is
    ///   changed or published then).
    func recordDecision<R: Sendable>(
        key: String,
        _ decide: @escaping @Sendable (inout PaymentRequestRecord) throws -> R
    )
        async throws -> R
    {
        try await store.transaction("pbba.updatePaymentRequest") { documents in
            let (result, status) = try documents.update(
                PaymentRequestRecord.self, profile: Self.backendProfile,
                namespace: Self.requestsNamespace, key: key
            ) { current -> (R, PaymentStatus) in
                guard var record = current else { throw PBBAError.paymentRequestNotFound() }
                let result = try decide(&record)
                current = record
                return (result, record.status)
            }
            try documents.publish(PaymentDecision(requestKey: key, status: status), on: Self.decisionsChannel)
            return result
        }
    }

    /// Calls `handler` with every decision committed from now on, through this instance or any
    /// other instance on the same store, once each, until the subscription returned is cancelled.
    func onDecision(_ handler: @escaping @Sendable (PaymentDecision) -> Void) -> StoreSubscription {
        store.subscribe(Self.decisionsChannel, as: PaymentDecision.self, handler)
    }

    /// The store key of the request a code identifies now, if any.
    func requestKey(forBRN brn: String) async throws -> String? {
        try await store.read("pbba.brn") { documents in
            try documents.get(BRNIndexEntry.self, profile: Self.backendProfile, namespace: Self.brnsNamespace, key: brn)?
                .requestKey
        }
    }

    // MARK: The device

    /// How many PBBA-enabled bank apps the profile's device has (read every time: never cached).
    func bankApps(profile: String) async throws -> Int {
        let defaultBankApps = self.defaultBankApps
        return try await store.read("pbba.bankApps") { documents in
            try documents.get(Int.self, profile: profile, namespace: Self.deviceNamespace, key: Self.bankAppsKey)
                ?? defaultBankApps
        }
    }

    /// Installs or removes bank apps on the profile's device; with none left the remembered flag
    /// is void and is cleared with them (as the library clears it when it finds no bank app).
    /// - Returns: the remembered flag after the change.
    func setBankApps(_ count: Int, profile: String) async throws -> Bool {
        try await store.transaction("pbba.setBankAppsInstalled") { documents in
            try documents.put(count, profile: profile, namespace: Self.deviceNamespace, key: Self.bankAppsKey)
            if count == 0 {
                try documents.delete(profile: profile, namespace: Self.userDefaultsNamespace, key: Self.rememberedKey)
            }
            return try documents.get(Bool.self, profile: profile, namespace: Self.userDefaultsNamespace, key: Self.rememberedKey)
                ?? false
        }
    }

    /// The remembered "Open banking app" flag of the profile's merchant app.
    func remembered(profile: String) async throws -> Bool {
        try await store.read("pbba.remembered") { documents in
            try documents.get(Bool.self, profile: profile, namespace: Self.userDefaultsNamespace, key: Self.rememberedKey)
                ?? false
        }
    }

    /// Sets or clears the remembered flag (cleared means no document, like a removed default).
    func setRemembered(_ flag: Bool, profile: String) async throws {
        try await store.transaction("pbba.remembered") { documents in
            if flag {
                try documents.put(true, profile: profile, namespace: Self.userDefaultsNamespace, key: Self.rememberedKey)
            } else {
                try documents.delete(profile: profile, namespace: Self.userDefaultsNamespace, key: Self.rememberedKey)
            }
        }
    }
}
