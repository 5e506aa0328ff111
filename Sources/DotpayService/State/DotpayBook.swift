#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCServiceKit
import PayRPCStore

/// Dotpay's state in the store, behind intent-named methods: each profile's settings
/// (`dotpay/settings`), its remembered cards (`dotpay.cards`, by card id), its payment history
/// (`dotpay.history`, by payment id) and its outbox of URLC notifications (`dotpay.urlc`, by
/// notification id).
///
/// Every change that touches two documents is one transaction: a card and the default it may
/// become, a card removed and the default passed on, a payment with the last channel, the card
/// it remembered and its URLC notification, a status change or a refund with its notification.
/// What the change did comes back so the service can tell the profile's connections here, and
/// the card callbacks it causes are published in its transaction for the other gateways'.
struct DotpayBook: Sendable {
    let store: any StateStore
    /// Every connection of each profile, on every gateway: the card callbacks go to all of them.
    let audience: ProfileAudience
    /// The notifications' tries across gateways (shared store; nil: this gateway alone): a
    /// notification's first try is armed in the transaction that writes it.
    let deliveries: SharedDeliveries?

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
    func register(_ card: StoredCard, profile: String) async throws -> CardRegistration {
        try await store.transaction("dotpay.registerPaymentCard") { documents in
            let registration = try Self.register(card, profile: profile, in: documents)
            try publish(pushes(registration, profile: profile), in: documents)
            return registration
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
            let changed = settings.defaultCardId != id
            if changed { try publish(pushes(.changed(card), profile: profile), in: documents) }
            return (card, changed)
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
            try documents.delete(StoredCard.self, profile: profile, key: id)
            return try repairDefault(profile, in: documents)
        }
    }

    /// Forgets every card (`clearData`).
    func removeAllCards(_ profile: String) async throws -> DefaultChange {
        try await store.transaction("dotpay.clearData") { documents in
            for card in try Self.cards(profile, in: documents) {
                try documents.delete(StoredCard.self, profile: profile, key: card.card.creditCardId)
            }
            return try repairDefault(profile, in: documents)
        }
    }

    /// Replaces the external cards with `cards` for `customerId` (nil: none) and returns the
    /// cards in use after it.
    func replaceExternalCards(_ cards: [StoredCard], customerId: String?, profile: String) async throws
        -> (cards: [OneClickPaymentCard], change: DefaultChange)
    {
        try await store.transaction("dotpay.configureWithExternalCards") { documents in
            for stored in try Self.cards(profile, in: documents) where stored.card.external {
                try documents.delete(StoredCard.self, profile: profile, key: stored.card.creditCardId)
            }
            for card in cards {
                try documents.put(card, profile: profile, key: card.card.creditCardId)
            }
            try Self.updateSettings(profile, in: documents) { $0.customerId = customerId }
            let change = try repairDefault(profile, in: documents)
            let settings = try Self.settings(profile, in: documents)
            return (DotpayCards.visible(try Self.cards(profile, in: documents), settings: settings), change)
        }
    }

    // MARK: Payments

    /// Puts a payment in the history with, together or not at all: its channel remembered as the
    /// last one (unless it paid by 1Click), the card it remembers (the form's consent; the first
    /// card becomes the default) and its URLC notification.
    /// - Returns: what remembering the card did, when it was asked to.
    /// - Throws: ``PaymentIdTaken`` when another payment has its id (draw another).
    func record(_ record: PaymentRecord, profile: String) async throws -> CardRegistration? {
        let paymentId = record.payment.summary.paymentId
        return try await store.transaction("dotpay.recordPayment") { documents in
            guard try !documents.contains(StoredPayment.self, profile: profile, key: paymentId) else {
                throw PaymentIdTaken()
            }
            var payment = record.payment
            let registration = try record.card.map { try Self.register($0, profile: profile, in: documents) }
            if let registration {
                try publish(pushes(registration, profile: profile), in: documents)
                payment.summary.cardId = registration.card.creditCardId
                payment.card?.creditCardId = registration.card.creditCardId
            }
            try documents.put(payment, profile: profile, key: paymentId)
            if let completesAt = payment.completesAt {
                try DueCompletions.publish(profile: profile, at: completesAt, in: documents)
            }
            if let notification = payment.notification(of: payment.summary.relatedOperations[0], at: record.now) {
                _ = try Self.add(notification, profile: profile, in: documents, arming: deliveries)
            }
            if let lastChannelId = record.lastChannelId {
                try Self.updateSettings(profile, in: documents) { $0.lastChannelId = lastChannelId }
            }
            return registration
        }
    }

    /// The profile's payment history, in no particular order.
    func payments(_ profile: String) async throws -> [StoredPayment] {
        try await store.read("dotpay.paymentHistory") { documents in
            try documents.list(StoredPayment.self, profile: profile).map(\.value)
        }
    }

    /// The payment `id` of the history.
    func payment(_ id: String, profile: String) async throws -> StoredPayment? {
        try await store.read("dotpay.payment") { documents in
            try documents.get(StoredPayment.self, profile: profile, key: id)
        }
    }

    /// Removes a payment from the history; false when there is none. Its URLC notifications stay.
    func removePayment(_ id: String, profile: String) async throws -> Bool {
        try await store.transaction("dotpay.removePaymentSummary") { documents in
            guard try documents.contains(StoredPayment.self, profile: profile, key: id) else { return false }
            try documents.delete(StoredPayment.self, profile: profile, key: id)
            return true
        }
    }

    /// Reads a payment again: a `completesLater` payment whose time has come on the profile's
    /// clock completes, with its URLC notification. Nil when there is no such payment.
    func refreshPayment(
        _ id: String, profile: String, now: Date,
        announcing announce: @escaping @Sendable (StoredPayment, StoreTransaction) throws -> Void
    ) async throws -> (payment: StoredPayment, notification: UrlcNotification?)? {
        try await store.transaction("dotpay.updatePaymentSummary") { [deliveries] documents in
            let refreshed = try Self.completeIfDue(id, profile: profile, now: now, in: documents, arming: deliveries)
            if let refreshed { try announce(refreshed.payment, documents) }
            return refreshed
        }
    }

    /// When the profile's next `completesLater` payment completes; nil when none waits.
    func nextCompletion(profile: String) async throws -> Date? {
        try await store.read("dotpay.nextCompletion") { documents in
            try documents.list(StoredPayment.self, profile: profile)
                .compactMap { $0.value.summary.status == .processing ? $0.value.completesAt : nil }.min()
        }
    }

    /// Completes every `completesLater` payment of the profile whose time has come (the sandbox
    /// clock moved past it), each with its URLC notification, and returns the notifications.
    func completeDuePayments(profile: String, now: Date) async throws -> [UrlcNotification] {
        try await store.transaction("dotpay.completeDuePayments") { [deliveries] documents in
            var notifications: [UrlcNotification] = []
            for (_, stored) in try documents.list(StoredPayment.self, profile: profile) {
                var payment = stored
                guard payment.completeIfDue(at: now) else { continue }
                if let notification = try Self.saveCompletion(
                    payment, profile: profile, now: now, in: documents, arming: deliveries)
                {
                    notifications.append(notification)
                }
            }
            return notifications
        }
    }

    /// Refunds a completed payment (see ``StoredPayment/refund(_:number:at:)``) with the refund's
    /// URLC notification, together, and publishes what `announce` publishes of the refunded payment.
    /// - Throws: ``DotpayError`` `paymentNotFound` or `refundRefused`.
    func refund(
        _ id: String, amount: Amount?, number: String, profile: String, now: Date,
        announcing announce: @escaping @Sendable (StoredPayment, StoreTransaction) throws -> Void
    ) async throws
        -> (payment: StoredPayment, notification: UrlcNotification?)
    {
        try await store.transaction("dotpay.refund") { [deliveries] documents in
            guard
                var payment = try documents.get(StoredPayment.self, profile: profile, key: id)
            else {
                throw DotpayError(.paymentNotFound, "no payment \(id) in the history", paymentId: id)
            }
            let operation = try payment.refund(amount, number: number, at: now)
            try documents.put(payment, profile: profile, key: id)
            let notification = try payment.notification(of: operation, at: now).flatMap {
                try Self.add($0, profile: profile, in: documents, arming: deliveries) ? $0 : nil
            }
            try announce(payment, documents)
            return (payment, notification)
        }
    }

    // MARK: URLC notifications

    /// The outbox of URLC notifications.
    var notifications: Outbox<UrlcNotification> { Outbox(store: store) }

    // MARK: Callbacks

    /// The card callbacks a registration causes: the new card, and the default it became.
    func pushes(_ registration: CardRegistration, profile: String) -> [ProfilePush] {
        guard registration.isNew else { return [] }
        let card = registration.card
        return [audience.push(DidRegisterNewCreditCard.self, .init(card: card), profile: profile)]
            + (registration.becameDefault ? pushes(.changed(card), profile: profile) : [])
    }

    /// The callback a change of the default card causes (none when it did not change).
    func pushes(_ change: DefaultChange, profile: String) -> [ProfilePush] {
        guard case .changed(let card) = change else { return [] }
        return [audience.push(DidChangeDefaultOneClickPaymentCard.self, .init(card: card), profile: profile)]
    }

    /// Publishes callbacks in the transaction of their cause, for the other gateways' connections.
    private func publish(_ pushes: [ProfilePush], in documents: StoreTransaction) throws {
        for push in pushes { try push.publish(in: documents) }
    }

    /// ``repairDefault(_:in:)`` whose change of the default is published in the transaction.
    private func repairDefault(_ profile: String, in documents: StoreTransaction) throws -> DefaultChange {
        let change = try Self.repairDefault(profile, in: documents)
        try publish(pushes(change, profile: profile), in: documents)
        return change
    }

    // MARK: Inside a transaction

    /// Remembers a registered card, unless the same number is remembered for the same customer
    /// already (that card is the answer then); the first card becomes the default.
    private static func register(_ card: StoredCard, profile: String, in documents: StoreTransaction) throws -> CardRegistration {
        let existing = try cards(profile, in: documents)
        if let same = existing.first(where: { $0.numberHash == card.numberHash && $0.card.customerId == card.card.customerId }) {
            return CardRegistration(card: same.card, isNew: false, becameDefault: false)
        }
        try documents.put(card, profile: profile, key: card.card.creditCardId)
        let becameDefault = try updateSettings(profile, in: documents) { settings -> Bool in
            guard settings.defaultCardId == nil else { return false }
            settings.defaultCardId = card.card.creditCardId
            return true
        }
        var registered = card.card
        registered.isDefault = becameDefault
        return CardRegistration(card: registered, isNew: true, becameDefault: becameDefault)
    }

    /// ``StoredPayment/completeIfDue(at:)`` of the payment `id`, with the notification of its
    /// completion; nil when there is no such payment.
    private static func completeIfDue(
        _ id: String, profile: String, now: Date, in documents: StoreTransaction, arming: SharedDeliveries?
    ) throws
        -> (payment: StoredPayment, notification: UrlcNotification?)?
    {
        guard var payment = try documents.get(StoredPayment.self, profile: profile, key: id)
        else {
            return nil
        }
        guard payment.completeIfDue(at: now) else { return (payment, nil) }
        return (payment, try saveCompletion(payment, profile: profile, now: now, in: documents, arming: arming))
    }

    /// Saves a payment that has just completed, with the notification of its completion (nil when
    /// there is none, or it was in the outbox already).
    private static func saveCompletion(
        _ payment: StoredPayment, profile: String, now: Date, in documents: StoreTransaction, arming: SharedDeliveries?
    ) throws
        -> UrlcNotification?
    {
        try documents.put(payment, profile: profile, key: payment.summary.paymentId)
        guard let notification = payment.notification(of: payment.summary.relatedOperations[0], at: now) else { return nil }
        return try add(notification, profile: profile, in: documents, arming: arming) ? notification : nil
    }

    /// Puts a notification in the outbox, unless one with its id is there already (false: the
    /// delivery that wrote it delivers it); on a shared store its delivery run begins with it.
    private static func add(
        _ notification: UrlcNotification, profile: String, in documents: StoreTransaction, arming: SharedDeliveries?
    ) throws -> Bool {
        guard try !documents.contains(UrlcNotification.self, profile: profile, key: notification.notificationId) else {
            return false
        }
        try documents.put(notification, profile: profile, key: notification.notificationId)
        if let arming {
            try arming.begin(arming.firstTry(item: notification.notificationId, profile: profile), in: documents)
        }
        return true
    }

    private static func settings(_ profile: String, in documents: some StoreReading) throws -> DotpaySettings {
        try documents.document(DotpaySettings.self, profile: profile) ?? DotpaySettings()
    }

    private static func updateSettings<R>(
        _ profile: String, in documents: StoreTransaction,
        _ body: (inout DotpaySettings) throws -> R
    ) throws -> R {
        try documents.updateDocument(DotpaySettings.self, profile: profile, default: DotpaySettings(), body)
    }

    private static func cards(_ profile: String, in documents: some StoreReading) throws -> [StoredCard] {
        try documents.list(StoredCard.self, profile: profile).map(\.value)
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

/// A payment to put in the history, and what comes with it (``DotpayBook/record(_:profile:)``).
struct PaymentRecord: Sendable {
    /// The payment.
    var payment: StoredPayment
    /// The channel to remember as the last one (nil: a 1Click payment leaves it).
    var lastChannelId: Int?
    /// The card to remember (the form's consent), when the payment completed.
    var card: StoredCard?
    /// The profile's sandbox time.
    var now: Date
}

/// What remembering a card did.
struct CardRegistration: Sendable, Equatable {
    /// The card (the one remembered before, for a number known already).
    var card: OneClickPaymentCard
    /// Whether it is a new card.
    var isNew: Bool
    /// Whether it became the default (the first card).
    var becameDefault: Bool
}

/// Another payment has the id drawn for a new one.
struct PaymentIdTaken: Error {}

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
