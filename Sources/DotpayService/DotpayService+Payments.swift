import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import PayRPCStore

extension DotpayService {
    /// `dotpay.getChannelList`: the four variants, and the details for `dotpay.pay`.
    public func getChannelList(_ params: GetChannelList.Params, _ context: RequestContext) async throws -> GetChannelList.Result {
        let settings = try await settings(context)
        var info = params.paymentInfo
        try checkMoney(info, at: "/paymentInfo")
        if let control = info.control {
            if try await book.isTaken(control: control, profile: context.profile) {
                throw DotpayError(.duplicateControl, "a payment with control \(control) exists already", control: control)
            }
        } else {
            info.control = newControl(context)
        }
        let channels = sandbox.catalogue(debugMode: settings.debugMode).filter { channel in
            takes(channel, info) && (params.online.map { channel.online == $0 } ?? true)
                && (params.ids.map { $0.contains(channel.id) } ?? true) && (params.group.map { channel.group == $0 } ?? true)
                && channel.id != sandbox.oneClickChannelId
        }
        let details = PaymentDetails(paymentInfo: info, language: settings.language,
                                     system: settings.debugMode ? "test" : "production", preparedAt: context.now)
        return GetChannelList.Result(channels: channels, paymentDetails: details)
    }

    /// `dotpay.pay`.
    public func pay(_ params: Pay.Params, _ context: RequestContext) async throws -> PaymentSummary {
        let settings = try await settings(context)
        let info = params.paymentDetails.paymentInfo
        try checkMoney(info, at: "/paymentDetails/paymentInfo")
        guard let channelId = params.channelId ?? (params.useLastChannelSelection ? settings.lastChannelId : nil) else {
            throw DotpayError(.channelNotFound, "no channel chosen, and no last channel to use (useLastChannelSelection)")
        }
        let channel = try usableChannel(channelId, info, settings)
        return try await record(info, channel: channel, summaryShown: params.showSummaryScreen, cardId: nil,
                                settings: settings, context)
    }

    /// `dotpay.fastPayment`.
    public func fastPayment(_ params: FastPayment.Params, _ context: RequestContext) async throws -> PaymentSummary {
        let settings = try await settings(context)
        try checkMoney(params.paymentInfo, at: "/paymentInfo")
        let channel = try usableChannel(params.paymentChannelId, params.paymentInfo, settings)
        guard channel.online else {
            throw DotpayError(.channelUnavailable, "\(channel.name) is offline: a fast payment needs an online channel",
                              channelId: channel.id)
        }
        return try await record(params.paymentInfo, channel: channel, summaryShown: params.showingDefaultSummary, cardId: nil,
                                settings: settings, context)
    }

    /// `dotpay.oneClickPayment`.
    public func oneClickPayment(_ params: OneClickPayment.Params, _ context: RequestContext) async throws -> PaymentSummary {
        let settings = try await settings(context)
        guard settings.oneClickEnabled else { throw DotpayError(.oneClickDisabled, "1Click is disabled (dotpay.setOneClickEnabled)") }
        try checkMoney(params.paymentInfo, at: "/paymentInfo")
        guard let cardId = params.paymentCard ?? settings.defaultCardId else {
            throw DotpayError(.noDefaultCard, "no card given and no default card set")
        }
        guard let card = try await book.visibleCards(context.profile).cards.first(where: { $0.creditCardId == cardId }) else {
            throw DotpayError(.cardNotFound, "no usable card \(cardId)", creditCardId: cardId)
        }
        let channel = try usableChannel(sandbox.oneClickChannelId, params.paymentInfo, settings)
        return try await record(params.paymentInfo, channel: channel, summaryShown: false, cardId: card.creditCardId,
                                settings: settings, context)
    }

    // MARK: Helpers

    /// Refuses an amount with more decimals than its currency has, or one not above zero, and a
    /// currency Dotpay does not take.
    func checkMoney(_ info: PaymentInfo, at pointer: String) throws {
        let money: Money
        do {
            guard sandbox.currencies.contains(info.currency) else { throw MoneyProblem.unknownCurrency(info.currency) }
            money = try Money.checked(amount: info.amount, currencyCode: info.currency)
        } catch MoneyProblem.tooManyDecimals(_, let currency) {
            throw Self.amountViolation(pointer, currency)
        } catch {
            throw DotpayError(.currencyNotSupported, "\(info.currency) is not one of \(sandbox.currencies.joined(separator: ", "))")
        }
        if money.amount.isNegative || money.amount.isZero { throw Self.amountViolation(pointer, money.currency) }
    }

    /// The invalid params of an amount that is not positive or has too many decimals.
    static func amountViolation(_ pointer: String, _ currency: Currency) -> RPCError {
        RPCError.invalidParams([SchemaViolation(
            pointer: "\(pointer)/amount", keyword: "amount",
            message: "must be more than zero with at most \(currency.minorUnitDigits) decimals of \(currency.code)")])
    }

    /// Whether a channel takes the payment's currency and amount.
    func takes(_ channel: PaymentChannel, _ info: PaymentInfo) -> Bool {
        channel.currencies.contains(info.currency) && (channel.minAmount.map { info.amount >= $0 } ?? true)
            && (channel.maxAmount.map { info.amount <= $0 } ?? true)
    }

    /// The channel `id` of the profile's system, when it takes the payment.
    func usableChannel(_ id: Int, _ info: PaymentInfo, _ settings: DotpaySettings) throws -> PaymentChannel {
        guard let channel = sandbox.catalogue(debugMode: settings.debugMode).first(where: { $0.id == id }) else {
            throw DotpayError(.channelNotFound, "no channel \(id) in the \(settings.debugMode ? "test" : "production") system",
                              channelId: id)
        }
        guard takes(channel, info) else {
            throw DotpayError(.channelUnavailable, "\(channel.name) does not take \(info.amount) \(info.currency)", channelId: id)
        }
        return channel
    }

    /// A new `control` from the profile's seeded stream.
    func newControl(_ context: RequestContext) -> String {
        "ctrl-" + context.randomString("dotpay.control", length: 24, alphabet: "abcdefghijklmnopqrstuvwxyz0123456789")
    }

    /// Makes the payment and puts it in the history: the sandbox's outcome for its amount, its
    /// `control` claimed (unique), the channel remembered as the last one.
    func record(_ info: PaymentInfo, channel: PaymentChannel, summaryShown: Bool, cardId: String?,
                settings: DotpaySettings, _ context: RequestContext) async throws -> PaymentSummary {
        let outcome = magic[info.amount]?.outcome
        if outcome == .flowFails {
            throw DotpayError(.paymentFailed, "the payment flow failed (sandbox amount \(info.amount))", channelId: channel.id)
        }
        let now = context.now
        let digits = context.randomString("dotpay.paymentId", length: 8, alphabet: "0123456789")
        let paymentId = "M" + digits.prefix(4) + "-" + digits.suffix(4)
        let control = info.control ?? newControl(context)
        let status: PaymentStatus
        switch outcome {
        case .rejected: status = .rejected
        case .staysProcessing, .completesLater: status = .processing
        default: status = channel.online ? .completed : .new
        }
        let summary = PaymentSummary(
            paymentId: paymentId, control: control, status: status, amount: info.amount, currency: info.currency,
            description: info.textDescription, channelId: channel.id, channelName: channel.name,
            merchantID: info.merchantID, system: settings.debugMode ? "test" : "production", summaryScreenShown: summaryShown,
            cardId: cardId, createdAt: now, updatedAt: now,
            relatedOperations: [RelatedOperation(number: paymentId, type: "payment", status: status, amount: info.amount, date: now)])
        let stored = StoredPayment(
            summary: summary,
            completesAt: outcome == .completesLater ? now.addingTimeInterval(Double(sandbox.completionDelaySeconds)) : nil,
            updateFails: outcome == .updateFails)
        connections.track(context.connection)
        try await book.record(stored, lastChannelId: cardId == nil ? channel.id : nil, profile: context.profile)
        return summary
    }
}
