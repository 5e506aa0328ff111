#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

extension TatraService {
    /// `tatra.executePayment`: validates the payment against the setup data and the magic amounts,
    /// and keeps it in the current flow (starting one if there is none) until it is authorized.
    /// Touches no store: the pending payment lives on the connection.
    public func executePayment(_ params: ExecutePayment.Params, _ context: RequestContext) throws(TatraError) -> UTF8Text {
        // One exact conversion to cents, then integers only.
        guard let cents = sandbox.cents(params.amount), cents >= sandbox.minimumCents,
            cents <= sandbox.maximumCents
        else {
            let setup = sandbox.setup, amount = params.amount
            let inRange = amount >= setup.minTransactionAmount && amount <= setup.maxTransactionAmount
            throw TatraError.amountLimit(
                title: sandbox.texts.amountLimit,
                message: inRange
                    ? "The amount may have at most two decimals."
                    : "The amount must be from \(PaymentText.amount(setup.minTransactionAmount)) to "
                        + "\(PaymentText.amount(setup.maxTransactionAmount)) \(sandbox.currency).")
        }
        guard let phone = params.contact.phones.first else {
            throw TatraError.executePayment(title: sandbox.texts.executePayment, message: "The recipient has no phone number.")
        }
        guard sandbox.phoneRegex.matchesWhole(phone) else {
            throw TatraError.executePayment(
                title: sandbox.texts.executePayment,
                message: "The recipient's phone number \(phone) is not valid.")
        }
        guard phone != sandbox.owner.phone else {
            throw TatraError.sameRecipient(title: sandbox.texts.sameRecipient, message: "The recipient is your own phone number.")
        }
        if let reference = params.reference {
            // A text has at most as many UTF-16 units as UTF-8 bytes: its byte count, which a
            // native string knows, answers for most references without counting the units.
            let limit = sandbox.setup.descriptionValidationLength
            guard reference.utf8.count <= limit || reference.utf16.count <= limit else {
                throw TatraError.executePayment(
                    title: sandbox.texts.executePayment,
                    message: "The reference may have at most \(limit) characters.")
            }
            guard sandbox.descriptionRegex.matchesWhole(reference) else {
                throw TatraError.executePayment(
                    title: sandbox.texts.executePayment,
                    message: "The reference contains characters that are not allowed.")
            }
        }
        guard sandbox.setup.isActivated else {
            throw TatraError.executePayment(
                title: sandbox.texts.executePayment, message: "PayKey is not activated.",
                status: .failedPrecondition)
        }
        var outOfServiceTimes = 0
        if let magic = sandbox.magic(cents: cents) {
            switch magic.outcome {
            case .general:
                throw TatraError.general(title: sandbox.texts.general, message: "The bank could not process the payment.")
            case .serviceUnavailable:
                throw TatraError.serviceUnavailable(
                    title: sandbox.texts.serviceUnavailable,
                    message: "The bank's payment service is unavailable.")
            case .network:
                throw TatraError.network(title: sandbox.texts.network, message: "The bank could not be reached.")
            case .executePayment:
                throw TatraError.executePayment(
                    title: sandbox.texts.executePayment, message: "The bank declined the payment.",
                    status: .failedPrecondition)
            case .bankTempOOS:
                outOfServiceTimes = magic.outOfServiceTimes
            }
        }
        let reference = params.reference, recipientName = params.contact.fullName
        let amount = MinorUnitsText(cents)
        // The confirmation is written over the connection's last one.
        return connectionState(context).withValue { state, confirmation in
            state.execute { serial in
                PendingPayment(
                    serial: serial, cents: cents, recipientName: recipientName, phone: phone,
                    reference: reference, outOfServiceTimes: outOfServiceTimes)
            }
            sandbox.confirmationTemplate.fill(into: &confirmation) { placeholder, text in
                switch placeholder {
                case .amount: text.append(amount)
                case .name: text.append(recipientName)
                case .phone: text.append(phone)
                case .reference: text.append(reference)
                case .paymentId: break
                }
            }
        }
    }

    /// `tatra.authorizePayment`: checks the PIN and completes the flow's pending payment (or holds
    /// it, for a magic out-of-service amount).
    public func authorizePayment(_ params: AuthorizePayment.Params, _ context: RequestContext) async throws -> String {
        // Mark the payment as being authorized, so that a second authorization sent before this
        // one has answered cannot pay it twice.
        let claim = withConnectionState(context) { state -> Claim in
            guard let flow = state.flow, let pending = flow.pending else { return .nothing }
            if flow.authorizing { return .busy }
            state.flow?.authorizing = true
            return .claimed(flow: flow.number, pending)
        }
        let flowNumber: UInt64, pending: PendingPayment
        switch claim {
        case .claimed(let number, let payment):
            (flowNumber, pending) = (number, payment)
        case .nothing:
            throw TatraError.executePayment(
                title: sandbox.texts.executePayment,
                message: "No payment awaits authorization in the current flow: execute the payment first "
                    + "(a payment executed in another or a stopped flow cannot be authorized).",
                status: .failedPrecondition)
        case .busy:
            throw TatraError.executePayment(
                title: sandbox.texts.executePayment,
                message: "The payment is being authorized already: wait for that answer before sending another PIN.",
                status: .failedPrecondition)
        }
        enum Outcome: Sendable {
            case pin(PinCheck)
            case held(String)
            case completed(String)
        }
        let outcome: Outcome
        do {
            outcome = try await updateProfileState(context) { state in
                let check = self.checkPin(params.pincode, in: &state)
                guard check == .accepted else { return .pin(check) }
                let paymentId = state.nextPaymentId()
                if pending.outOfServiceTimes > 0 {
                    state.held.append(HeldPayment(holding: pending, paymentId: paymentId))
                    return .held(paymentId)
                }
                state.addPaid(pending.amount)
                return .completed(paymentId)
            }
        } catch {
            release(pending, flow: flowNumber, keep: true, context)
            throw error
        }
        switch outcome {
        case .pin(let check):
            let mayRetry = check == .rejected(blocked: false)
            release(pending, flow: flowNumber, keep: mayRetry, context)
            throw wrongPinError(blocked: !mayRetry)
        case .held(let paymentId):
            release(pending, flow: flowNumber, keep: false, context)
            throw TatraError.bankTempOOS(paymentId: paymentId)
        case .completed(let paymentId):
            release(pending, flow: flowNumber, keep: false, context)
            return shareText(
                amount: PaymentText.format(cents: pending.cents), name: pending.recipientName, phone: pending.phone,
                reference: pending.reference, paymentId: paymentId)
        }
    }

    /// `tatra.resubmitPayment`: completes a held payment, unless the bank is still out of service.
    public func resubmitPayment(_ params: ResubmitPayment.Params, _ context: RequestContext) async throws -> String {
        enum Outcome: Sendable {
            case unknown
            case stillOutOfService
            case completed(HeldPayment)
        }
        let paymentId = params.paymentId
        let outcome = try await updateProfileState(context) { state -> Outcome in
            guard let index = state.held.firstIndex(where: { $0.paymentId == paymentId }) else { return .unknown }
            if state.held[index].outOfServiceLeft > 0 {
                state.held[index].outOfServiceLeft -= 1
                return .stillOutOfService
            }
            let payment = state.held.remove(at: index)
            state.addPaid(payment.amount)
            return .completed(payment)
        }
        switch outcome {
        case .unknown:
            throw TatraError.general(
                title: sandbox.texts.general,
                message: "There is no payment \(paymentId) waiting to be resubmitted.",
                status: .notFound)
        case .stillOutOfService:
            throw TatraError.bankTempOOS(paymentId: paymentId)
        case .completed(let payment):
            return shareText(
                amount: PaymentText.amount(payment.amount), name: payment.recipientName, phone: payment.phone,
                reference: payment.reference, paymentId: payment.paymentId)
        }
    }

    /// The text to share about a completed payment (the sandbox's `paymentShare`), `amount` with
    /// two decimals.
    private func shareText(
        amount: String, name: String, phone: String, reference: String?, paymentId: String
    ) -> String {
        sandbox.shareTemplate.filled { placeholder, text in
            switch placeholder {
            case .amount: text.append(amount)
            case .name: text.append(name)
            case .phone: text.append(phone)
            case .reference: text.append(reference)
            case .paymentId: text.append(paymentId)
            }
        }.description
    }

    /// What `tatra.authorizePayment` found in the flow.
    private enum Claim {
        case claimed(flow: UInt64, PendingPayment)
        case nothing
        case busy
    }

    /// Ends the authorization of `pending`: keeps it awaiting authorization (a wrong PIN, a store
    /// failure) or forgets it (paid, held, blocked). Changes nothing when the flow has moved on
    /// (stopped, restarted, or another payment executed meanwhile).
    private func release(_ pending: PendingPayment, flow number: UInt64, keep: Bool, _ context: RequestContext) {
        withConnectionState(context) { state in
            guard state.flow?.number == number, state.flow?.pending?.serial == pending.serial else { return }
            state.flow?.authorizing = false
            if !keep { state.flow?.pending = nil }
        }
    }
}
