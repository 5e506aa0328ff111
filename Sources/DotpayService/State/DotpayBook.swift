#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCStore

/// Dotpay's state in the store, behind intent-named methods: each profile's settings
/// (`dotpay/settings`), its remembered cards (`dotpay.cards`, by card id), its payment history
/// (`dotpay.history`, by payment id) and the `control` values taken (`dotpay.controls`).
///
/// Every change that touches two documents is one transaction: a card and the default it may
/// become, a card removed and the default passed on, a payment and its `control` and the last
/// channel. What the change did comes back so the service can tell the profile's connections.
struct DotpayBook: Sendable {
    let store: any StateStore

    // MARK: Settings

    /// The profile's settings (defaults when none are stored).
    func settings(_ profile: String) async throws -> DotpaySettings {
        try await store.read("dotpay.settings") { try Self.settings(profile, in: $0) }
    }

    /// Changes the profile's settings atomically; `body` returns what it did.
    func updateSettings<R: Sendable>(_ profile: String, _ body: @escaping @Sendable (inout DotpaySettings) throws -> R)
        async throws -> R
    {
        try await store.transaction("dotpay.updateSettings") { documents in
            try Self.updateSettings(profile, in: documents, body)
        }
    }

    // MARK: Cards

    /// The profile's settings and the cards in use with them (see ``DotpayCards/visible(_:settings:)``).
    func visibleCards(_ profile: String) async throws -> (settings: DotpaySettings, cards: [OneClickPaymentCard]) {
        try await store.read("dotpay.cards") { documents in
            let settings = try Self.settings(profile, in: documents)
            return (settings, DotpayCards.visible(try Self.cards(profile, in: documents), settings: settings))
        }
    }

    /// The card registered with the number whose keyed hash is `numberHash` for `customerId`, if any.
    func card(numberHash: String, customerId: String?, profile: String) async throws -> OneClickPaymentCard? {
        try await store.read("dotpay.card") { documents in
            try Self.cards(profile, in: documents).first { $0.numberHash == numberHash && $0.card.customerId == customerId }?.card
        }
    }

    /// Remembers a registered card, unless the same number is remembered for the same customer
    /// already (that card is the answer then); the first card becomes the default.
    func register(_ card: StoredCard, profile: String) async throws -> (card: OneClickPaymentCard, becameDefault: Bool) {
        try await store.transaction("dotpay.registerPaymentCard") { documents in
            let existing = try Self.cards(profile, in: documents)
            if let same = existing.first(where: { $0.numberHash == card.numberHash && $0.card.customerId == card.card.customerId }
            ) {
                return (same.card, false)
            }
            try documents.put(card, profile: profile, namespace: StoredCard.namespace, key: card.card.creditCardId)
            let becameDefault = try Self.updateSettings(profile, in: documents) { settings -> Bool in
                guard settings.defaultCardId == nil else { return false }
                settings.defaultCardId = card.card.creditCardId
                return true
            }
            return (card.card, becameDefault)
        }
    }

    /// Makes a card in use the default; nil when no card in use has that id. `changed` says
    /// whether another card was the default before.
    func setDefault(_ id: String, profile: String) async throws -> (card: OneClickPaymentCard, changed: Bool)? {
        try await store.transaction("dotpay.setDefaultOneClickPaymentCard") { documents in
            let settings = try Self.settings(profile, in: documents)
            guard
                var card = DotpayCards.visible(try Self.cards(profile, in: documents), settings: settings)
                    .first(where: { $0.creditCardId == id })
            else { return nil }
            try Self.updateSettings(profile, in: documents) { $0.defaultCardId = id }
            card.isDefault = true
            return (card, settings.defaultCardId != id)
        }
    }

    /// Forgets a card in use and passes the default on; nil when no card in use has that id.
    func unregister(_ id: String, profile: String) async throws -> DefaultChange? {
        try await store.transaction("dotpay.unregisterPaymentCard") { documents in
            let settings = try Self.settings(profile, in: documents)
            guard
                DotpayCards.visible(try Self.cards(profile, in: documents), settings: settings)
                    .contains(where: { $0.creditCardId == id })
            else { return nil }
            try documents.delete(profile: profile, namespace: StoredCard.namespace, key: id)
            return try Self.repairDefault(profile, in: documents)
        }
    }

    /// Forgets every card (`clearData`).
    func removeAllCards(_ profile: String) async throws -> DefaultChange {
        try await store.transaction("dotpay.clearData") { documents in
            for card in try Self.cards(profile, in: documents) {
                try documents.delete(profile: profile, namespace: StoredCard.namespace, key: card.card.creditCardId)
            }
            return try Self.repairDefault(profile, in: documents)
        }
    }

    /// Replaces the external cards with `cards` for `customerId` (nil: none) and returns the
    /// cards in use after it.
    func replaceExternalCards(_ cards: [StoredCard], customerId: String?, profile: String) async throws
        -> (cards: [OneClickPaymentCard], change: DefaultChange)
    {
        try await store.transaction("dotpay.configureWithExternalCards") { documents in
            for stored in try Self.cards(profile, in: documents) where stored.card.external {
                try documents.delete(profile: profile, namespace: StoredCard.namespace, key: stored.card.creditCardId)
            }
            for card in cards {
                try documents.put(card, profile: profile, namespace: StoredCard.namespace, key: card.card.creditCardId)
            }
            try Self.updateSettings(profile, in: documents) { $0.customerId = customerId }
            let change = try Self.repairDefault(profile, in: documents)
            let settings = try Self.settings(profile, in: documents)
            return (DotpayCards.visible(try Self.cards(profile, in: documents), settings: settings), change)
        }
    }

    // MARK: Payments

    /// Whether a payment has taken `control` already.
    func isTaken(control: String, profile: String) async throws -> Bool {
        try await store.read("dotpay.control") { documents in
            try documents.contains(profile: profile, namespace: StoredPayment.controlNamespace, key: control)
        }
    }

    /// Puts a payment in the history with its `control` claimed and, unless it paid by card, its
    /// channel remembered as the last one: together or not at all (a crash in between cannot
    /// leave a `control` claimed by nothing).
    /// - Throws: ``DotpayError`` `duplicateControl` when the `control` is taken.
    func record(_ payment: StoredPayment, lastChannelId: Int?, profile: String) async throws {
        let control = payment.summary.control, paymentId = payment.summary.paymentId
        try await store.transaction("dotpay.recordPayment") { documents in
            guard try !documents.contains(profile: profile, namespace: StoredPayment.controlNamespace, key: control) else {
                throw DotpayError(.duplicateControl, "a payment with control \(control) exists already", control: control)
            }
            try documents.put(paymentId, profile: profile, namespace: StoredPayment.controlNamespace, key: control)
            try documents.put(payment, profile: profile, namespace: StoredPayment.namespace, key: paymentId)
            if let lastChannelId {
                try Self.updateSettings(profile, in: documents) { $0.lastChannelId = lastChannelId }
            }
        }
    }

    /// The profile's payment history, in no particular order.
    func payments(_ profile: String) async throws -> [StoredPayment] {
        try await store.read("dotpay.paymentHistory") { documents in
            try documents.list(StoredPayment.self, profile: profile, namespace: StoredPayment.namespace).map(\.value)
        }
    }

    /// Removes a payment from the history (its `control` stays taken); false when there is none.
    func removePayment(_ id: String, profile: String) async throws -> Bool {
        try await store.transaction("dotpay.removePaymentSummary") { documents in
            guard try documents.contains(profile: profile, namespace: StoredPayment.namespace, key: id) else { return false }
            try documents.delete(profile: profile, namespace: StoredPayment.namespace, key: id)
            return true
        }
    }

    /// Changes a payment of the history atomically; nil when there is none.
    func updatePayment(_ id: String, profile: String, _ change: @escaping @Sendable (inout StoredPayment) -> Void)
        async throws -> StoredPayment?
    {
        try await store.transaction("dotpay.updatePaymentSummary") { documents in
            try documents.update(StoredPayment.self, profile: profile, namespace: StoredPayment.namespace, key: id) { stored in
                guard var payment = stored else { return nil }
                change(&payment)
                stored = payment
                return payment
            }
        }
    }

    // MARK: Inside a transaction

    private static func settings(_ profile: String, in documents: some StoreReading) throws -> DotpaySettings {
        try documents.get(DotpaySettings.self, profile: profile, namespace: DotpaySettings.namespace, key: DotpaySettings.key)
            ?? DotpaySettings()
    }

    private static func updateSettings<R>(
        _ profile: String, in documents: StoreTransaction,
        _ body: (inout DotpaySettings) throws -> R
    ) throws -> R {
        try documents.update(
            DotpaySettings.self, profile: profile, namespace: DotpaySettings.namespace,
            key: DotpaySettings.key, default: DotpaySettings(), body)
    }

    private static func cards(_ profile: String, in documents: some StoreReading) throws -> [StoredCard] {
        try documents.list(StoredCard.self, profile: profile, namespace: StoredCard.namespace).map(\.value)
    }

    /// After cards went away: a default that is gone passes to the oldest remaining card (or to
    /// none). Returns the change, if there was one.
    private static func repairDefault(_ profile: String, in documents: StoreTransaction) throws -> DefaultChange {
        let remaining = DotpayCards.oldestFirst(try cards(profile, in: documents))
        let ids = Set(remaining.map(\.card.creditCardId))
        let next = remaining.first?.card
        return try updateSettings(profile, in: documents) { settings -> DefaultChange in
            if let current = settings.defaultCardId, ids.contains(current) { return .unchanged }
            if settings.defaultCardId == nil && next == nil { return .unchanged }
            settings.defaultCardId = next?.creditCardId
            var card = next
            card?.isDefault = true
            return .changed(card)
        }
    }
}

/// What removing cards did to the profile's default card.
enum DefaultChange: Sendable, Equatable {
    /// The default is as it was.
    case unchanged
    /// The default passed to this card (nil: no card is the default any more).
    case changed(OneClickPaymentCard?)
}

/// Which remembered cards are in use, and in what order.
enum DotpayCards {
    /// Oldest first (ties by id).
    static func oldestFirst(_ cards: [StoredCard]) -> [StoredCard] {
        cards.sorted { ($0.registeredAt, $0.card.creditCardId) < ($1.registeredAt, $1.card.creditCardId) }
    }

    /// The cards in use: external ones, and internal ones unless `useInternalCards` is off; the
    /// default marked; oldest first.
    static func visible(_ cards: [StoredCard], settings: DotpaySettings) -> [OneClickPaymentCard] {
        oldestFirst(cards.filter { $0.card.external || settings.useInternalCards }).map { stored in
            var card = stored.card
            card.isDefault = card.creditCardId == settings.defaultCardId
            return card
        }
    }
}
