import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import PayRPCStore
import PayRPCSecrets

extension DotpayService {
    /// `dotpay.getChannelList`: the four variants, and the details for `dotpay.pay`.
    public func getChannelList(_ params: GetChannelList.Params, _ context: RequestContext) async throws -> GetChannelList.Result {
        let settings = try await settings(context)
        var info = params.paymentInfo
        let money = try checkedMoney(info, at: "/paymentInfo")
        if info.control == nil { info.control = newControl(context) }
        let channels = sandbox.catalogue(debugMode: settings.debugMode).filter { channel in
            takes(channel, money) && (params.online.map { channel.online == $0 } ?? true)
                && (params.ids.map { $0.contains(channel.id) } ?? true) && (params.group.map { channel.group == $0 } ?? true)
                && channel.id != sandbox.oneClickChannelId
        }
        let details = PaymentDetails(
            paymentInfo: info, language: settings.language, system: settings.system, preparedAt: context.now)
        return GetChannelList.Result(channels: channels, paymentDetails: details)
    }

    /// `dotpay.pay`.
    public func pay(_ params: Pay.Params, _ context: RequestContext) async throws -> PaymentSummary {
        let settings = try await settings(context)
        var info = params.paymentDetails.paymentInfo
        let money = try checkedMoney(info, at: "/paymentDetails/paymentInfo")
        if info.control == nil { info.control = newControl(context) }
        guard let channelId = params.channelId ?? (params.useLastChannelSelection ? settings.lastChannelId : nil) else {
            throw DotpayError(.channelNotFound, "no channel chosen, and no last channel to use (useLastChannelSelection)")
        }
        guard channelId != sandbox.oneClickChannelId else {
            throw DotpayError(
                .channelUnavailable, "1Click pays with a remembered card, not through the form: dotpay.oneClickPayment",
                channelId: channelId)
        }
        let channel = try usableChannel(channelId, money, settings)
        let card = try formCard(params, channel: channel, settings: settings, context)
        if params.masterpassAuthorization && channel.id == sandbox.masterpassChannelId {
            try await authorizeMasterpass(info, registered: settings.masterpassRegistered, context)
        }
        return try await record(
            info, channel: channel, summaryShown: params.showSummaryScreen, card: card,
            settings: settings, context)
    }

    /// `dotpay.fastPayment`.
    public func fastPayment(_ params: FastPayment.Params, _ context: RequestContext) async throws -> PaymentSummary {
        let settings = try await settings(context)
        let money = try checkedMoney(params.paymentInfo, at: "/paymentInfo")
        let channel = try usableChannel(params.paymentChannelId, money, settings)
        guard channel.online else {
            throw DotpayError(
                .channelUnavailable, "\(channel.name) is offline: a fast payment needs an online channel",
                channelId: channel.id)
        }
        return try await record(
            params.paymentInfo, channel: channel, summaryShown: params.showingDefaultSummary, card: nil,
            settings: settings, context)
    }

    /// `dotpay.oneClickPayment`.
    public func oneClickPayment(_ params: OneClickPayment.Params, _ context: RequestContext) async throws -> PaymentSummary {
        let settings = try await settings(context)
        guard settings.oneClickEnabled else {
            throw DotpayError(.oneClickDisabled, "1Click is disabled (dotpay.setOneClickEnabled)")
        }
        let money = try checkedMoney(params.paymentInfo, at: "/paymentInfo")
        guard let cardId = params.paymentCard ?? settings.defaultCardId else {
            throw DotpayError(.noDefaultCard, "no card given and no default card set")
        }
        guard let card = try await book.visibleCards(context.profile).cards.first(where: { $0.creditCardId == cardId }) else {
            throw DotpayError(.cardNotFound, "no usable card \(cardId)", creditCardId: cardId)
        }
        let channel = try usableChannel(sandbox.oneClickChannelId, money, settings)
        let paid = FormCard(
            paid: PaidCard(
                maskedNumber: card.maskedNumber, brandCodename: card.brandCodename,
                creditCardId: card.creditCardId), remember: nil)
        return try await record(
            params.paymentInfo, channel: channel, summaryShown: false, card: paid, settings: settings, context)
    }

    // MARK: Helpers

    /// The payment's money, read once by the kit's money check (decimals as written) for every
    /// rule after it (channel currencies and limits): refuses an amount with more decimals than its
    /// currency has, or one not above zero, and a currency Dotpay does not take.
    func checkedMoney(_ info: PaymentInfo, at pointer: String) throws -> Money {
        let money: Money
        do {
            guard sandbox.currencies.contains(info.currency) else { throw MoneyProblem.unknownCurrency(info.currency) }
            money = try info.money(rule: .asWritten)
        } catch MoneyProblem.tooManyDecimals(_, let currency) {
            throw Self.amountViolation(pointer, currency)
        } catch {
            throw DotpayError(
                .currencyNotSupported, "\(info.currency) is not one of \(sandbox.currencies.joined(separator: ", "))")
        }
        if money.amount.isNegative || money.amount.isZero { throw Self.amountViolation(pointer, money.currency) }
        return money
    }

    /// The invalid params of an amount that is not positive or has too many decimals.
    static func amountViolation(_ pointer: String, _ currency: Currency) -> RPCError {
        RPCError.invalidParams([
            SchemaViolation(
                pointer: "\(pointer)/amount", keyword: "amount",
                message: "must be more than zero with at most \(currency.minorUnitDigits) decimals of \(currency.code)")
        ])
    }

    /// Whether a channel takes the payment's currency and amount.
    func takes(_ channel: PaymentChannel, _ money: Money) -> Bool {
        channel.currencies.contains(money.currency.code) && (channel.minAmount.map { money.amount >= $0 } ?? true)
            && (channel.maxAmount.map { money.amount <= $0 } ?? true)
    }

    /// The channel `id` of the profile's system, when it takes the payment.
    func usableChannel(_ id: Int, _ money: Money, _ settings: DotpaySettings) throws -> PaymentChannel {
        guard let channel = sandbox.catalogue(debugMode: settings.debugMode).first(where: { $0.id == id }) else {
            throw DotpayError(
                .channelNotFound, "no channel \(id) in the \(settings.system) system",
                channelId: id)
        }
        guard takes(channel, money) else {
            throw DotpayError(
                .channelUnavailable, "\(channel.name) does not take \(money.amount) \(money.currency.code)", channelId: id)
        }
        return channel
    }

    /// A new `control` from the profile's seeded stream.
    func newControl(_ context: RequestContext) -> String {
        "ctrl-" + context.randomString("dotpay.control", length: 24, alphabet: "abcdefghijklmnopqrstuvwxyz0123456789")
    }

    /// The card typed in a card channel's form, checked as a registration checks it, and the card
    /// to remember when the buyer consented (`rememberCard`); nil when the form took no card.
    /// - Throws: invalid params for a card outside a card channel or a consent without a card;
    ///   ``DotpayError`` `oneClickDisabled` for a consent while 1Click is off, `cardRefused` for a
    ///   card the sandbox refuses.
    func formCard(
        _ params: Pay.Params, channel: PaymentChannel, settings: DotpaySettings,
        _ context: RequestContext
    ) throws -> FormCard? {
        guard let info = params.cardInfo else {
            guard !params.rememberCard else {
                throw RPCError.invalidParams([
                    SchemaViolation(
                        pointer: "/rememberCard", keyword: "rememberCard",
                        message: "remembering a card needs the card: give cardInfo")
                ])
            }
            return nil
        }
        guard channel.group == "cards" else {
            throw RPCError.invalidParams([
                SchemaViolation(
                    pointer: "/cardInfo", keyword: "cardInfo",
                    message: "\(channel.name) (\(channel.id)) takes no card: only a card channel's form does")
            ])
        }
        if params.rememberCard && !settings.oneClickEnabled {
            throw DotpayError(.oneClickDisabled, "1Click is disabled (dotpay.setOneClickEnabled): the form offers no consent")
        }
        let hash = try checkedCardHash(info, context)
        let (_, codename) = Self.brand(of: info.cardNumber)
        return FormCard(
            paid: PaidCard(maskedNumber: CardNumberMask.mask(info.cardNumber), brandCodename: codename, creditCardId: nil),
            remember: params.rememberCard ? newCard(info, numberHash: hash, settings: settings, context) : nil)
    }

    /// Makes the payment and puts it in the history: the sandbox's outcome for its amount, the
    /// channel remembered as the last one, the card remembered when the buyer consented and the
    /// payment completed, the URLC notification of a final status; then tells the profile's
    /// connections of a new card and starts the notification's delivery.
    func record(
        _ info: PaymentInfo, channel: PaymentChannel, summaryShown: Bool, card: FormCard?,
        settings: DotpaySettings, _ context: RequestContext
    ) async throws -> PaymentSummary {
        let outcome = magic[info.amount]?.outcome
        if outcome == .flowFails {
            throw DotpayError(.paymentFailed, "the payment flow failed (sandbox amount \(info.amount))", channelId: channel.id)
        }
        let now = context.now
        let control = info.control ?? newControl(context)
        let status: PaymentStatus
        switch outcome {
        case .rejected: status = .rejected
        case .staysProcessing, .completesLater: status = .processing
        case .awaitsRealization: status = .processingRealizationWaiting
        case .inRealization: status = .processingRealization
        default: status = channel.online ? .completed : .new
        }
        for _ in 0..<Self.paymentIdDraws {
            let paymentId = newOperationNumber(context)
            let summary = PaymentSummary(
                paymentId: paymentId, control: control, status: status, amount: info.amount, currency: info.currency,
                description: info.textDescription, channelId: channel.id, channelName: channel.name,
                merchantID: info.merchantID, system: settings.system, summaryScreenShown: summaryShown,
                cardId: card?.paid.creditCardId, createdAt: now, updatedAt: now,
                relatedOperations: [
                    RelatedOperation(number: paymentId, type: "payment", status: status, amount: info.amount, date: now)
                ])
            let payment = StoredPayment(
                summary: summary,
                completesAt: outcome == .completesLater ? now.addingTimeInterval(Double(sandbox.completionDelaySeconds)) : nil,
                updateFails: outcome == .updateFails, urlc: info.urlc, email: info.senderInformation?.email, card: card?.paid)
            let record = PaymentRecord(
                payment: payment, lastChannelId: channel.id == sandbox.oneClickChannelId ? nil : channel.id,
                card: status == .completed ? card?.remember : nil, now: now)
            let registration: CardRegistration?
            do {
                registration = try await book.record(record, profile: context.profile)
            } catch is PaymentIdTaken {
                continue
            }
            if let registration { announce(registration, context) }
            if let completesAt = payment.completesAt { due.add(profile: context.profile, at: completesAt) }
            urlc.deliver(
                payment.notification(of: summary.relatedOperations[0], at: now).map { [$0] } ?? [], profile: context.profile)
            var answer = summary
            answer.cardId = registration?.card.creditCardId ?? summary.cardId
            return answer
        }
        throw RPCError(.internalError, "no free payment id after \(Self.paymentIdDraws) draws")
    }

    /// How many payment ids a payment draws at most before it gives up (ids that other payments of
    /// the profile have are drawn again).
    static let paymentIdDraws = 8

    /// A new operation number (`M1234-5678`) from the profile's seeded stream.
    func newOperationNumber(_ context: RequestContext) -> String {
        let digits = context.randomString("dotpay.paymentId", length: 8, alphabet: "0123456789")
        return "M" + digits.prefix(4) + "-" + digits.suffix(4)
    }
}

/// The card a payment is made with, and the card to remember from the form.
struct FormCard: Sendable {
    /// What URLC notifications say of the card.
    var paid: PaidCard
    /// The card to remember (the buyer's consent), if any.
    var remember: StoredCard?
}
