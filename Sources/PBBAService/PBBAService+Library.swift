import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The merchant library's methods: the device check, the pop-ups, opening the bank app, layouts.
extension PBBAService {
    func isCFIAppAvailable(_ context: RequestContext) async throws -> Bool {
        try await book.bankApps(profile: context.profile) > 0
    }

    func showPopup(_ params: ShowPBBAPopup.Params, _ context: RequestContext) async throws -> PBBAPopup {
        try Self.check(params)
        let key = book.requestKey(for: params.secureToken)
        guard let record = try await book.record(key: key) else { throw PBBAError.paymentRequestNotFound() }
        guard record.brn == params.brn.uppercased() else {
            throw PBBAError.brnMismatch(params.brn, requestId: record.requestId)
        }
        try Self.requireInProgress(record, at: currentTime())
        let bankApps = try await book.bankApps(profile: context.profile)
        var remembered = try await book.remembered(profile: context.profile)
        let decision = PopupDecision.decide(bankApps: bankApps, remembered: remembered)
        if decision.clearRemembered {
            try await book.setRemembered(false, profile: context.profile)
            remembered = false
        }
        let popupExpiry = currentTime().addingTimeInterval(TimeInterval(params.expiryInterval))
        let clock = now
        let expiresAt = try await book.updateRecord(key: key) { record -> Date in
            try Self.requireInProgress(record, at: clock())
            if popupExpiry < record.expiresAt { record.expiresAt = popupExpiry }
            return record.expiresAt
        }
        var popup: PaymentWatch.OnScreenPopup?
        switch decision.action {
        case .openBankingApp: popup = nil
        case .showMCommPopup: popup = .init(popupId: SecureTokenGenerator.popupId(), kind: .mcomm)
        case .showECommPopup: popup = .init(popupId: SecureTokenGenerator.popupId(), kind: .ecomm)
        }
        try await follow(key: key, record: record, session: context.connection, popup: popup, expiresAt: expiresAt)
        context.logger.debug("pbba pop-up decision", metadata: [
            "pbba.requestId": .string(record.requestId), "pbba.action": .string(decision.action.rawValue),
        ])
        return try Self.presentation(action: decision.action, popup: popup, secureToken: params.secureToken,
                                     bankApps: bankApps, brn: record.brn, expiresAt: expiresAt,
                                     remembered: remembered, requestId: record.requestId)
    }

    func showErrorPopup(_ params: ShowPBBAErrorPopup.Params, _ context: RequestContext) -> PBBAErrorPopup {
        var warnings: [LengthWarning] = []
        func check(_ field: String, _ text: String?, _ maximum: Int) {
            guard let text, text.count > maximum else { return }
            warnings.append(LengthWarning(field: field, length: text.count, recommendedMaximum: maximum,
                                          message: "\(field) has \(text.count) characters; at most \(maximum) are recommended"))
        }
        check("errorCode", params.errorCode, PopupTexts.recommendedErrorCodeLength)
        check("errorTitle", params.errorTitle, PopupTexts.recommendedErrorTitleLength)
        check("errorMessage", params.errorMessage, PopupTexts.recommendedErrorMessageLength)
        let popupId = SecureTokenGenerator.popupId()
        registry.showErrorPopup(popupId: popupId, errorCode: params.errorCode, session: context.connection)
        return PBBAErrorPopup(popupId: popupId, kind: .error, errorCode: params.errorCode,
                              errorTitle: params.errorTitle, errorMessage: params.errorMessage,
                              buttons: PopupTexts.errorButtons, warnings: warnings)
    }

    public func openBankingApp(_ params: OpenBankingApp.Params, _ context: RequestContext) async throws -> BankAppLaunch {
        let key = book.requestKey(for: params.secureToken)
        guard let record = try await book.record(key: key) else { throw PBBAError.paymentRequestNotFound() }
        try Self.requireInProgress(record, at: currentTime())
        let bankApps = try await book.bankApps(profile: context.profile)
        guard bankApps > 0 else {
            try await book.setRemembered(false, profile: context.profile)
            throw PBBAError.noBankAppInstalled()
        }
        try await book.setRemembered(true, profile: context.profile)
        if !registry.isWatched(requestKey: key) {
            try await follow(key: key, record: record, session: context.connection, popup: nil,
                             expiresAt: record.expiresAt)
        }
        return BankAppLaunch(url: try Self.bankAppURL(params.secureToken), appPicker: bankApps > 1, remembered: true)
    }

    func customUXConfiguration(_ params: GetCustomUXConfigurations.Params) throws -> CustomUXLayout {
        guard params.width.isFinite, params.width >= CustomUXLayouts.minimumWidth else {
            throw RPCError.invalidParams([.init(pointer: "/width", keyword: "minimum",
                                                message: "width must be at least 200 points")])
        }
        return CustomUXLayouts.layout(params.type, width: params.width)
    }

    public func tapGetCode(_ params: PopupReference, _ context: RequestContext) async throws -> PBBAPopup {
        let watch = try registry.tapGetCode(params.popupId)
        let remembered = try await book.remembered(profile: context.profile)
        let bankApps = try await book.bankApps(profile: context.profile)
        return try Self.presentation(action: .showECommPopup, popup: watch.popup, secureToken: nil,
                                     bankApps: bankApps, brn: watch.brn, expiresAt: watch.expiresAt,
                                     remembered: remembered, requestId: watch.requestId)
    }

    // MARK: Helpers

    /// Makes `session` the watcher of the request, then reads it again: a decision stored between
    /// the caller's read and the watch (by another connection) found no watcher to tell, so it is
    /// reported here. Later decisions claim the watch themselves.
    func follow(key: String, record: PaymentRequestRecord, session: ConnectionSession,
                popup: PaymentWatch.OnScreenPopup?, expiresAt: Date) async throws {
        registry.watch(requestKey: key, requestId: record.requestId, brn: record.brn, session: session,
                       popup: popup, expiresAt: expiresAt)
        guard let latest = try await book.record(key: key) else { return }
        let status = latest.status(at: currentTime())
        if status != .inProgress, let watch = registry.claim(requestKey: key) {
            PopupRegistry.report(status, to: watch)
        }
    }

    /// The two constraints the timers and the code lookup rely on, checked here as well as by the
    /// params schema, so that no validator setting can let a huge interval reach the timer
    /// arithmetic.
    static func check(_ params: ShowPBBAPopup.Params) throws(RPCError) {
        var violations: [SchemaViolation] = []
        if params.brn.count != 6 || !params.brn.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) }) {
            violations.append(.init(pointer: "/brn", keyword: "pattern", message: "brn must be exactly 6 letters or digits"))
        }
        if !(1...86_400).contains(params.expiryInterval) {
            violations.append(.init(pointer: "/expiryInterval", keyword: "minimum",
                                    message: "expiryInterval must be a whole number of seconds from 1 to 86400"))
        }
        if !violations.isEmpty { throw RPCError.invalidParams(violations) }
    }

    /// Throws unless the request still waits for a decision at `time`.
    static func requireInProgress(_ record: PaymentRequestRecord, at time: Date) throws(PBBAError) {
        switch record.status(at: time) {
        case .inProgress: return
        case .expired:
            throw .requestExpired(requestId: record.requestId, brn: record.brn, expiredAt: record.expiresAt)
        case .completed, .declined:
            throw .paymentAlreadyFinished(requestId: record.requestId, brn: record.brn, status: record.status)
        }
    }

    /// `zapp://<secureToken>`, the common Pay by Bank app URL scheme.
    static func bankAppURL(_ secureToken: String) throws -> URL {
        guard let url = URL(string: "zapp://" + secureToken) else {
            throw RPCError.invalidParams([.init(pointer: "/secureToken", keyword: "pattern",
                                                message: "secureToken cannot form a zapp:// URL")])
        }
        return url
    }

    /// What the library shows for `action`.
    static func presentation(action: PopupAction, popup: PaymentWatch.OnScreenPopup?, secureToken: String?,
                             bankApps: Int, brn: String, expiresAt: Date, remembered: Bool,
                             requestId: String) throws -> PBBAPopup {
        switch action {
        case .openBankingApp:
            return PBBAPopup(action: action, popupId: nil, kind: nil,
                             bankAppURL: try secureToken.map(bankAppURL), appPicker: bankApps > 1, code: nil,
                             title: nil, buttons: [], instructions: [], moreAboutLink: false,
                             expiresAt: expiresAt, remembered: remembered, requestId: requestId)
        case .showMCommPopup:
            return PBBAPopup(action: action, popupId: popup?.popupId, kind: .mcomm, bankAppURL: nil,
                             appPicker: bankApps > 1, code: nil, title: PopupTexts.title,
                             buttons: PopupTexts.mcommButtons, instructions: [], moreAboutLink: true,
                             expiresAt: expiresAt, remembered: remembered, requestId: requestId)
        case .showECommPopup:
            return PBBAPopup(action: action, popupId: popup?.popupId, kind: .ecomm, bankAppURL: nil,
                             appPicker: false, code: brn, title: PopupTexts.title, buttons: [],
                             instructions: PopupTexts.ecommInstructions, moreAboutLink: true,
                             expiresAt: expiresAt, remembered: remembered, requestId: requestId)
        }
    }
}
