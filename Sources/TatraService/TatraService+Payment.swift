#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

extension TatraService {
    /// `tatra.executePayment`: validates the payment against the setup data and the magic amounts,
    /// and keeps it in the current flow (starting one if there is none) until it is authorized.
    /// Touches no store: the pending payment lives on the connection.
    func executePayment(_ params: ExecutePayment.Params, _ context: RequestContext) throws(TatraError) -> String {
        try consumeInjectedFailure(.executePayment, context)
        let setup = sandbox.setup
        let texts = sandbox.texts
        let amount = params.amount
        guard amount >= setup.minTransactionAmount, amount <= setup.maxTransactionAmount else {
            throw TatraError.amountLimit(
                title: texts.amountLimit,
                message: "The amount must be from \(PaymentText.amount(setup.minTransactionAmount)) to "
                    + "\(PaymentText.amount(setup.maxTransactionAmount)) \(sandbox.currency).")
        }
        guard PaymentText.hasAtMostTwoDecimals(amount) else {
            throw TatraError.amountLimit(title: texts.amountLimit, message: "The amount may have at most two decimals.")
        }
        guard let phone = params.contact.phones.first else {
            throw TatraError.executePayment(title: texts.executePayment, message: "The recipient has no phone number.")
        }
        guard sandbox.phoneRegex.matchesWhole(phone) else {
            throw TatraError.executePayment(title: texts.executePayment,
                                            message: "The recipient's phone number \(phone) is not valid.")
        }
        guard phone != sandbox.owner.phone else {
            throw TatraError.sameRecipient(title: texts.sameRecipient, message: "The recipient is your own phone number.")
        }
        if let reference = params.reference {
            guard reference.utf16.count <= setup.descriptionValidationLength else {
                throw TatraError.executePayment(
                    title: texts.executePayment,
                    message: "The reference may have at most \(setup.descriptionValidationLength) characters.")
            }
            guard sandbox.descriptionRegex.matchesWhole(reference) else {
                throw TatraError.executePayment(title: texts.executePayment,
                                                message: "The reference contains characters that are not allowed.")
            }
        }
        guard setup.isActivated else {
            throw TatraError.executePayment(title: texts.executePayment, message: "PayKey is not activated.",
                                            status: .failedPrecondition)
        }
        var outOfServiceTimes = 0
        if let magic = sandbox.magic(for: amount) {
            switch magic.outcome {
            case .general:
                throw TatraError.general(title: texts.general, message: "The bank could not process the payment.")
            case .serviceUnavailable:
                throw TatraError.serviceUnavailable(title: texts.serviceUnavailable,
                                                    message: "The bank's payment service is unavailable.")
            case .network:
                throw TatraError.network(title: texts.network, message: "The bank could not be reached.")
            case .executePayment:
                throw TatraError.executePayment(title: texts.executePayment, message: "The bank declined the payment.",
                                                status: .failedPrecondition)
            case .bankTempOOS:
                outOfServiceTimes = magic.outOfServiceTimes
            }
        }
        let pending = PendingPayment(amount: amount, recipient: params.contact, phone: phone,
                                     reference: params.reference, outOfServiceTimes: outOfServiceTimes)
        withConnectionState(context) { state in
            if state.flow == nil { _ = state.startFlow(explicit: false) }
            state.flow?.pending = pending
        }
        return text(sandbox.confirmationTemplate, amount: amount, name: params.contact.fullName, phone: phone,
                    reference: params.reference, paymentId: nil)
    }

    /// `tatra.authorizePayment`: checks the PIN and completes the flow's pending payment (or holds
    /// it, for a magic out-of-service amount).
    func authorizePayment(_ params: AuthorizePayment.Params, _ context: RequestContext) async throws -> String {
        try consumeInjectedFailure(.authorizePayment, context)
        // Take the payment out of the flow, so two concurrent authorizations cannot both pay it.
        let taken = withConnectionState(context) { state -> (flow: UInt64, payment: PendingPayment)? in
            guard let flow = state.flow, let pending = flow.pending else { return nil }
            state.flow?.pending = nil
            return (flow.number, pending)
        }
        guard let (flowNumber, pending) = taken else {
            throw TatraError.executePayment(
                title: sandbox.texts.executePayment,
                message: "No payment awaits authorization in the current flow: execute the payment first "
                    + "(a payment executed in another or a stopped flow cannot be authorized).",
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
                    state.held.append(HeldPayment(
                        paymentId: paymentId, amount: pending.amount, recipientName: pending.recipient.fullName,
                        phone: pending.phone, reference: pending.reference,
                        outOfServiceLeft: pending.outOfServiceTimes - 1))
                    return .held(paymentId)
                }
                state.paid += pending.amount
                return .completed(paymentId)
            }
        } catch {
            restore(pending, flow: flowNumber, context)
            throw error
        }
        switch outcome {
        case .pin(let check):
            if case .rejected(blocked: false) = check { restore(pending, flow: flowNumber, context) }
            throw wrongPinError(blocked: check != .rejected(blocked: false))
        case .held(let paymentId):
            throw TatraError.bankTempOOS(paymentId: paymentId)
        case .completed(let paymentId):
            return text(sandbox.shareTemplate, amount: pending.amount, name: pending.recipient.fullName,
                        phone: pending.phone, reference: pending.reference, paymentId: paymentId)
        }
    }

    /// `tatra.resubmitPayment`: completes a held payment, unless the bank is still out of service.
    func resubmitPayment(_ params: ResubmitPayment.Params, _ context: RequestContext) async throws -> String {
        try consumeInjectedFailure(.resubmitPayment, context)
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
            state.paid += payment.amount
            return .completed(payment)
        }
        switch outcome {
        case .unknown:
            throw TatraError.general(title: sandbox.texts.general,
                                     message: "There is no payment \(paymentId) waiting to be resubmitted.",
                                     status: .notFound)
        case .stillOutOfService:
            throw TatraError.bankTempOOS(paymentId: paymentId)
        case .completed(let payment):
            return text(sandbox.shareTemplate, amount: payment.amount, name: payment.recipientName,
                        phone: payment.phone, reference: payment.reference, paymentId: payment.paymentId)
        }
    }

    /// Puts a payment taken for authorization back, if its flow is still the current one and no
    /// other payment has been executed since.
    private func restore(_ pending: PendingPayment, flow number: UInt64, _ context: RequestContext) {
        withConnectionState(context) { state in
            if state.flow?.number == number, state.flow?.pending == nil { state.flow?.pending = pending }
        }
    }

    /// A payment text: `template` filled in.
    private func text(_ template: PaymentTemplate, amount: Decimal, name: String, phone: String, reference: String?,
                      paymentId: String?) -> String {
        template.fill { placeholder in
            switch placeholder {
            case .amount: PaymentText.amount(amount)
            case .currency: sandbox.currency
            case .name: name
            case .phone: phone
            case .reference: reference ?? ""
            case .paymentId: paymentId ?? ""
            }
        }
    }
}
