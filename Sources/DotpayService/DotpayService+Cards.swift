import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCStore

extension DotpayService {
    /// `dotpay.registerPaymentCard`.
    public func registerPaymentCard(_ params: RegisterPaymentCard.Params,
                                    _ context: RequestContext) async throws -> OneClickPaymentCard {
        let settings = try await settings(context)
        guard settings.oneClickEnabled else { throw DotpayError(.oneClickDisabled, "1Click is disabled (dotpay.setOneClickEnabled)") }
        let info = params.cardInfo
        guard Self.passesLuhn(info.cardNumber), !sandbox.refusedCardNumbers.contains(info.cardNumber) else {
            throw DotpayError(.cardRefused, "the card \(CardNumberMask.mask(info.cardNumber)) was refused")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let today = calendar.dateComponents([.year, .month], from: context.now)
        if (info.expirationYear, info.expirationMonth) < (today.year ?? 0, today.month ?? 0) {
            throw DotpayError(.cardRefused, "the card \(CardNumberMask.mask(info.cardNumber)) expired")
        }
        let hash = try secrets.keyedHash(info.cardNumber, context: "dotpay.card")
        let existing = try await store.list(StoredCard.self, profile: context.profile, namespace: StoredCard.namespace)
        if let same = existing.first(where: { $0.value.numberHash == hash && $0.value.card.customerId == settings.customerId }) {
            return same.value.card
        }
        let (brandName, codename) = Self.brand(of: info.cardNumber)
        let card = OneClickPaymentCard(
            creditCardId: context.randomString("dotpay.cardId", length: 20, alphabet: "abcdefghijklmnopqrstuvwxyz0123456789"),
            maskedNumber: CardNumberMask.mask(info.cardNumber), brandName: brandName, brandCodename: codename,
            logoUrlPath: "https://ssl.dotpay.pl/test_payment/payment_api/card_logos/\(codename).png", isDefault: false,
            external: settings.customerId != nil, customerId: settings.customerId)
        try await store.put(StoredCard(card: card, numberHash: hash, registeredAt: context.now), profile: context.profile,
                            namespace: StoredCard.namespace, key: card.creditCardId)
        let becameDefault = try await updateSettings(context) { settings -> Bool in
            guard settings.defaultCardId == nil else { return false }
            settings.defaultCardId = card.creditCardId
            return true
        }
        var shown = card
        shown.isDefault = becameDefault
        connections.broadcast(DidRegisterNewCreditCard.self, .init(card: shown), profile: context.profile)
        if becameDefault {
            connections.broadcast(DidChangeDefaultOneClickPaymentCard.self, .init(card: shown), profile: context.profile)
        }
        return shown
    }

    /// `dotpay.paymentCards`.
    public func paymentCards(_ params: NoParams, _ context: RequestContext) async throws -> [OneClickPaymentCard] {
        try await visibleCards(try await settings(context), context)
    }

    /// `dotpay.defaultOneClickPaymentCard`.
    public func defaultOneClickPaymentCard(_ params: NoParams,
                                           _ context: RequestContext) async throws -> DefaultOneClickPaymentCard.Result {
        let cards = try await visibleCards(try await settings(context), context)
        return DefaultOneClickPaymentCard.Result(card: cards.first(where: \.isDefault))
    }

    /// `dotpay.setDefaultOneClickPaymentCard`.
    public func setDefaultOneClickPaymentCard(_ params: SetDefaultOneClickPaymentCard.Params,
                                              _ context: RequestContext) async throws -> OneClickPaymentCard {
        let settings = try await settings(context)
        guard var card = try await visibleCards(settings, context).first(where: { $0.creditCardId == params.creditCardId }) else {
            throw DotpayError(.cardNotFound, "no usable card \(params.creditCardId)", creditCardId: params.creditCardId)
        }
        let id = card.creditCardId
        try await updateSettings(context) { $0.defaultCardId = id }
        card.isDefault = true
        if settings.defaultCardId != id {
            connections.broadcast(DidChangeDefaultOneClickPaymentCard.self, .init(card: card), profile: context.profile)
        }
        return card
    }

    /// `dotpay.unregisterPaymentCard`.
    public func unregisterPaymentCard(_ params: UnregisterPaymentCard.Params, _ context: RequestContext) async throws -> NoResult {
        let settings = try await settings(context)
        guard try await visibleCards(settings, context).contains(where: { $0.creditCardId == params.creditCardId }) else {
            throw DotpayError(.cardNotFound, "no usable card \(params.creditCardId)", creditCardId: params.creditCardId)
        }
        try await store.delete(profile: context.profile, namespace: StoredCard.namespace, key: params.creditCardId)
        try await repairDefault(context)
        return NoResult()
    }

    /// `dotpay.clearData`.
    public func clearData(_ params: NoParams, _ context: RequestContext) async throws -> NoResult {
        _ = try await settings(context)
        for (key, _) in try await store.list(StoredCard.self, profile: context.profile, namespace: StoredCard.namespace) {
            try await store.delete(profile: context.profile, namespace: StoredCard.namespace, key: key)
        }
        try await repairDefault(context)
        return NoResult()
    }

    /// `dotpay.configureWithExternalCards`.
    public func configureWithExternalCards(_ params: ConfigureWithExternalCards.Params,
                                           _ context: RequestContext) async throws -> [OneClickPaymentCard] {
        _ = try await settings(context)
        try await removeExternalCards(context)
        for (index, external) in params.externalCards.enumerated() {
            let card = OneClickPaymentCard(
                creditCardId: external.creditCardId, maskedNumber: external.maskedNumber, brandName: external.brandName,
                brandCodename: external.brandCodename, logoUrlPath: external.logoUrlPath, isDefault: false, external: true,
                customerId: params.customerId)
            try await store.put(StoredCard(card: card, numberHash: nil, registeredAt: context.now.addingTimeInterval(Double(index) / 1000)),
                                profile: context.profile, namespace: StoredCard.namespace, key: card.creditCardId)
        }
        let customerId = params.customerId
        try await updateSettings(context) { $0.customerId = customerId }
        try await repairDefault(context)
        return try await visibleCards(try await settings(context), context)
    }

    /// `dotpay.clearExternalCardsData`.
    public func clearExternalCardsData(_ params: NoParams, _ context: RequestContext) async throws -> NoResult {
        _ = try await settings(context)
        try await removeExternalCards(context)
        try await updateSettings(context) { $0.customerId = nil }
        try await repairDefault(context)
        return NoResult()
    }

    // MARK: Helpers

    /// The cards in use: external ones, and internal ones unless `useInternalCards` is off; the
    /// default marked; oldest first.
    func visibleCards(_ settings: DotpaySettings, _ context: RequestContext) async throws -> [OneClickPaymentCard] {
        try await store.list(StoredCard.self, profile: context.profile, namespace: StoredCard.namespace)
            .map(\.value)
            .filter { $0.card.external || settings.useInternalCards }
            .sorted { ($0.registeredAt, $0.card.creditCardId) < ($1.registeredAt, $1.card.creditCardId) }
            .map { stored in
                var card = stored.card
                card.isDefault = card.creditCardId == settings.defaultCardId
                return card
            }
    }

    /// Deletes every external card.
    func removeExternalCards(_ context: RequestContext) async throws {
        for (key, stored) in try await store.list(StoredCard.self, profile: context.profile, namespace: StoredCard.namespace)
        where stored.card.external {
            try await store.delete(profile: context.profile, namespace: StoredCard.namespace, key: key)
        }
    }

    /// After cards went away: a default that is gone passes to the oldest remaining card (or to
    /// none), and every connection of the profile hears of it.
    func repairDefault(_ context: RequestContext) async throws {
        let remaining = try await store.list(StoredCard.self, profile: context.profile, namespace: StoredCard.namespace)
            .map(\.value).sorted { ($0.registeredAt, $0.card.creditCardId) < ($1.registeredAt, $1.card.creditCardId) }
        let ids = Set(remaining.map(\.card.creditCardId))
        let next = remaining.first?.card.creditCardId
        let changed = try await updateSettings(context) { settings -> Bool in
            if let current = settings.defaultCardId, ids.contains(current) { return false }
            if settings.defaultCardId == nil && next == nil { return false }
            settings.defaultCardId = next
            return true
        }
        guard changed else { return }
        var card = remaining.first?.card
        card?.isDefault = true
        connections.broadcast(DidChangeDefaultOneClickPaymentCard.self, .init(card: card), profile: context.profile)
    }

    /// Whether `number` passes the Luhn check.
    static func passesLuhn(_ number: String) -> Bool {
        var sum = 0
        for (index, byte) in number.utf8.reversed().enumerated() {
            var digit = Int(byte) - 48
            if index % 2 == 1 { digit *= 2; if digit > 9 { digit -= 9 } }
            sum += digit
        }
        return sum % 10 == 0
    }

    /// The brand's name and codename, by the number's first digit.
    static func brand(of number: String) -> (String, String) {
        switch number.first {
        case "4": ("Visa", "visa")
        case "5", "2": ("Mastercard", "mastercard")
        case "6": ("Maestro", "maestro")
        case "3": ("American Express", "amex")
        default: ("Card", "card")
        }
    }
}
