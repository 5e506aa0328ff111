import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import PayRPCStore
import PayRPCSecrets

extension DotpayService {
    /// `dotpay.registerPaymentCard`.
    public func registerPaymentCard(
        _ params: RegisterPaymentCard.Params,
        _ context: RequestContext
    ) async throws -> OneClickPaymentCard {
        let settings = try await settings(context)
        guard settings.oneClickEnabled else {
            throw DotpayError(.oneClickDisabled, "1Click is disabled (dotpay.setOneClickEnabled)")
        }
        let hash = try checkedCardHash(params.cardInfo, context)
        if let same = try await book.card(numberHash: hash, customerId: settings.customerId, profile: context.profile) {
            return same
        }
        let card = newCard(params.cardInfo, numberHash: hash, settings: settings, context)
        let registration = try await book.register(card, profile: context.profile)
        announce(registration, context)
        return registration.card
    }

    /// `dotpay.paymentCards`.
    public func paymentCards(_ params: NoParams, _ context: RequestContext) async throws -> [OneClickPaymentCard] {
        return try await book.visibleCards(context.profile).cards
    }

    /// `dotpay.defaultOneClickPaymentCard`.
    public func defaultOneClickPaymentCard(
        _ params: NoParams,
        _ context: RequestContext
    ) async throws -> DefaultOneClickPaymentCard.Result {
        return DefaultOneClickPaymentCard.Result(
            card: try await book.visibleCards(context.profile).cards.first(where: \.isDefault))
    }

    /// `dotpay.setDefaultOneClickPaymentCard`.
    public func setDefaultOneClickPaymentCard(
        _ params: SetDefaultOneClickPaymentCard.Params,
        _ context: RequestContext
    ) async throws -> OneClickPaymentCard {
        guard let (card, changed) = try await book.setDefault(params.creditCardId, profile: context.profile) else {
            throw DotpayError(.cardNotFound, "no usable card \(params.creditCardId)", creditCardId: params.creditCardId)
        }
        if changed { announce(.changed(card), context) }
        return card
    }

    /// `dotpay.unregisterPaymentCard`.
    public func unregisterPaymentCard(_ params: UnregisterPaymentCard.Params, _ context: RequestContext) async throws -> NoResult
    {
        guard let change = try await book.unregister(params.creditCardId, profile: context.profile) else {
            throw DotpayError(.cardNotFound, "no usable card \(params.creditCardId)", creditCardId: params.creditCardId)
        }
        announce(change, context)
        return NoResult()
    }

    /// `dotpay.clearData`.
    public func clearData(_ params: NoParams, _ context: RequestContext) async throws -> NoResult {
        announce(try await book.removeAllCards(context.profile), context)
        return NoResult()
    }

    /// `dotpay.configureWithExternalCards`.
    public func configureWithExternalCards(
        _ params: ConfigureWithExternalCards.Params,
        _ context: RequestContext
    ) async throws -> [OneClickPaymentCard] {
        let cards = params.externalCards.enumerated().map { index, external in
            StoredCard(
                card: OneClickPaymentCard(
                    creditCardId: external.creditCardId, maskedNumber: external.maskedNumber, brandName: external.brandName,
                    brandCodename: external.brandCodename, logoUrlPath: external.logoUrlPath, isDefault: false, external: true,
                    customerId: params.customerId), numberHash: nil,
                registeredAt: context.now.addingTimeInterval(Double(index) / 1000))
        }
        let (visible, change) = try await book.replaceExternalCards(
            cards, customerId: params.customerId, profile: context.profile)
        announce(change, context)
        return visible
    }

    /// `dotpay.clearExternalCardsData`.
    public func clearExternalCardsData(_ params: NoParams, _ context: RequestContext) async throws -> NoResult {
        announce(try await book.replaceExternalCards([], customerId: nil, profile: context.profile).change, context)
        return NoResult()
    }

    // MARK: Helpers

    /// Checks what the buyer typed (Luhn, the sandbox's refused numbers, the expiry on the
    /// profile's clock) and returns the keyed hash of the number, the only form it is kept in.
    /// - Throws: ``DotpayError`` `cardRefused`.
    func checkedCardHash(_ info: PaymentCardInfo, _ context: RequestContext) throws -> String {
        guard CardRules.passesLuhn(info.cardNumber), !sandbox.refusedCardNumbers.contains(info.cardNumber) else {
            throw DotpayError(.cardRefused, "the card \(CardNumberMask.mask(info.cardNumber)) was refused")
        }
        if CardExpiry(year: info.expirationYear, month: info.expirationMonth)?.isExpired(at: context.now) ?? true {
            throw DotpayError(.cardRefused, "the card \(CardNumberMask.mask(info.cardNumber)) expired")
        }
        return try secrets.keyedHash(info.cardNumber, context: "dotpay.card")
    }

    /// A card to remember, checked already: masked, in the external customer's context when one is
    /// set, with a new id from the profile's seeded stream.
    func newCard(_ info: PaymentCardInfo, numberHash: String, settings: DotpaySettings, _ context: RequestContext) -> StoredCard {
        let (brandName, codename) = Self.brand(of: info.cardNumber)
        let card = OneClickPaymentCard(
            creditCardId: context.randomString("dotpay.cardId", length: 20, alphabet: "abcdefghijklmnopqrstuvwxyz0123456789"),
            maskedNumber: CardNumberMask.mask(info.cardNumber), brandName: brandName, brandCodename: codename,
            logoUrlPath: "https://ssl.dotpay.pl/test_payment/payment_api/card_logos/\(codename).png", isDefault: false,
            external: settings.customerId != nil, customerId: settings.customerId)
        return StoredCard(card: card, numberHash: numberHash, registeredAt: context.now)
    }

    /// Tells this gateway's connections of the profile of a new card (and of the default it
    /// became); the book published the same callbacks for the other gateways'.
    func announce(_ registration: CardRegistration, _ context: RequestContext) {
        book.audience.deliver(book.pushes(registration, profile: context.profile))
    }

    /// Tells this gateway's connections of the profile that the default card changed, when it did.
    func announce(_ change: DefaultChange, _ context: RequestContext) {
        book.audience.deliver(book.pushes(change, profile: context.profile))
    }

    /// The brand's name and codename as Dotpay shows them, by the number's IIN range.
    static func brand(of number: String) -> (String, String) {
        switch CardRules.brand(of: number) {
        case .visa: ("Visa", "visa")
        case .mastercard: ("Mastercard", "mastercard")
        case .maestro: ("Maestro", "maestro")
        case .amex: ("American Express", "amex")
        case .discover: ("Discover", "discover")
        case .jcb: ("JCB", "jcb")
        case .dinersClub: ("Diners Club", "diners")
        case nil: ("Card", "card")
        }
    }
}
