import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// The merchant backend's methods and the sandbox helpers that play the bank app and the device.
extension PBBAService {
    /// The amount and currency of a payment request, as a bank takes them: an amount above zero,
    /// an ISO 4217 code, and no more decimals than the currency's minor unit (the kit's one check;
    /// trailing zeros are free: `"10.000"` GBP is 1000 pence, `"10.005"` GBP and `"10.5"` JPY are
    /// refused).
    static func moneyViolations(_ money: some CarriesMoney) -> [SchemaViolation] {
        guard money.moneyAmount > .zero else {
            return [.init(pointer: "/amount", keyword: "exclusiveMinimum", message: "amount must be greater than 0")]
        }
        do {
            _ = try money.money(rule: .numeric)
            return []
        } catch {
            switch error {
            case .unknownCurrency: return [.init(pointer: "/currency", keyword: "enum", message: error.description)]
            case .tooManyDecimals: return [.init(pointer: "/amount", keyword: "multipleOf", message: error.description)]
            }
        }
    }

    func createPaymentRequest(_ params: SubmitPaymentRequest.Params, _ context: RequestContext) async throws -> PaymentRequest {
        let violations = Self.moneyViolations(params)
        if !violations.isEmpty { throw RPCError.invalidParams(violations) }
        if let interval = params.retrievalExpiryInterval, !(1...86_400).contains(interval) {
            throw RPCError.invalidParams([
                .init(
                    pointer: "/retrievalExpiryInterval", keyword: "minimum",
                    message: "retrievalExpiryInterval must be from 1 to 86400 seconds")
            ])
        }
        switch magic[params.amount]?.outcome {
        case .requestGenerationFailed: throw PBBAError.requestGenerationFailed()
        case .networkError: throw PBBAError.networkError()
        case nil: break
        }
        let interval = params.retrievalExpiryInterval ?? sandbox.defaultRetrievalExpiryInterval
        let created = context.now
        let template = PaymentRequestRecord(
            requestId: SecureTokenGenerator.requestId(context), brn: "", amount: params.amount,
            currency: params.currency, reference: params.reference, createdAt: created,
            expiresAt: created.addingTimeInterval(TimeInterval(interval)), status: .inProgress, decidedAt: nil,
            clockProfile: context.profile)
        let (secureToken, record) = try await book.create(
            record: template, now: created,
            newToken: { SecureTokenGenerator.secureToken(context) },
            newBRN: { SecureTokenGenerator.brn(context) })
        return PaymentRequest(
            secureToken: secureToken, brn: record.brn, retrievalExpiryInterval: interval,
            expiresAt: record.expiresAt, requestId: record.requestId)
    }

    func paymentStatus(_ params: GetPaymentStatus.Params, _ context: RequestContext) async throws -> PaymentStatusInfo {
        guard let record = try await book.record(key: try book.requestKey(for: params.secureToken)) else {
            throw PBBAError.paymentRequestNotFound()
        }
        return record.info(at: clock(of: record, context).now)
    }

    /// The bank app approves or declines: the decision is stored, then pushed to the connection
    /// that watches the request. The watch is claimed first, so its expiry timer cannot report
    /// too; when the request turns out expired, the expiry is reported instead.
    func decide(_ target: PaymentTarget, as status: PaymentStatus, _ context: RequestContext) async throws -> PaymentStatusInfo {
        let brn = target.brn?.uppercased()
        let key: String
        if let token = target.secureToken {
            key = try book.requestKey(for: token)
        } else if let brn {
            guard let found = try await book.requestKey(forBRN: brn) else {
                throw PBBAError.brnNotFound(brn)
            }
            key = found
        } else {
            throw RPCError.invalidParams([
                .init(
                    pointer: "", keyword: "required",
                    message: "give secureToken or brn")
            ])
        }
        let watch = registry.claim(requestKey: key)
        let (controls, callerProfile) = (context.sandbox, context.profile)
        do {
            let info = try await book.recordDecision(key: key) { record -> PaymentStatusInfo in
                if let brn, record.brn != brn { throw PBBAError.brnMismatch(brn, requestId: record.requestId) }
                let time = controls.now(profile: record.clockProfile ?? callerProfile)
                try Self.requireInProgress(record, at: time)
                record.status = status
                record.decidedAt = time
                return record.info(at: time)
            }
            if let watch { registry.decided(status, watch) }
            return info
        } catch let error as PBBAError where error.kind == .requestExpired {
            if let watch { registry.expiredOnDecision(watch) }
            throw error
        } catch {
            if let watch { registry.reinstate(watch) }
            throw error
        }
    }

    func setBankApps(_ params: SetBankAppsInstalled.Params, _ context: RequestContext) async throws -> BankAppsState {
        BankAppsState(count: params.count, remembered: try await book.setBankApps(params.count, profile: context.profile))
    }

    /// Stores a request another backend made and links the pop-ups already showing its token.
    func registerExternal(
        _ params: RegisterExternalRequest.Params,
        _ context: RequestContext
    ) async throws -> PaymentStatusInfo {
        var violations: [SchemaViolation] = []
        if let violation = Self.brnViolation(params.brn) { violations.append(violation) }
        violations += Self.moneyViolations(params)
        if let interval = params.retrievalExpiryInterval, !(1...86_400).contains(interval) {
            violations.append(
                .init(
                    pointer: "/retrievalExpiryInterval", keyword: "minimum",
                    message: "retrievalExpiryInterval must be from 1 to 86400 seconds"))
        }
        if !violations.isEmpty { throw RPCError.invalidParams(violations) }
        let now = context.now
        let interval = params.retrievalExpiryInterval ?? sandbox.defaultRetrievalExpiryInterval
        let record = PaymentRequestRecord(
            requestId: SecureTokenGenerator.requestId(context), brn: params.brn.uppercased(), amount: params.amount,
            currency: params.currency, reference: params.reference, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(interval)), status: .inProgress, decidedAt: nil,
            clockProfile: context.profile)
        try await book.register(secureToken: params.secureToken, record: record, now: now)
        registry.link(
            requestKey: try book.requestKey(for: params.secureToken), requestId: record.requestId,
            brn: record.brn, expiresAt: record.expiresAt, clock: clock(of: record, context))
        return record.info(at: now)
    }
}
