import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import Logging

/// The merchant library's methods: the device check, the pop-ups, opening the bank app, layouts.
extension PBBAService {
    func isCFIAppAvailable(_ context: RequestContext) async throws -> Bool {
        try await book.bankApps(profile: context.profile) > 0
    }

    func showPopup(_ params: ShowPBBAPopup.Params, _ context: RequestContext) async throws -> PBBAPopup {
        try Self.check(params)
        let now = context.now
        let key = try book.requestKey(for: params.secureToken)
        let record = try await book.record(key: key)
        if let record {
            guard record.brn == params.brn.uppercased() else {
                throw PBBAError.brnMismatch(params.brn, requestId: record.requestId)
            }
            try Self.requireInProgress(record, at: clock(of: record, context).now)
        }
        let bankApps = try await book.bankApps(profile: context.profile)
        var remembered = try await book.remembered(profile: context.profile)
        let decision = PopupDecision.decide(bankApps: bankApps, remembered: remembered)
        if decision.clearRemembered {
            try await book.setRemembered(false, profile: context.profile)
            remembered = false
        }
        let brn = record?.brn ?? params.brn.uppercased()
        let popupExpiry = now.addingTimeInterval(TimeInterval(params.expiryInterval))
        var popupId: String?
        if let kind = decision.action.popupKind {
            let id = SecureTokenGenerator.popupId(context)
            registry.showPaymentPopup(
                popupId: id, kind: kind, owner: PopupOwner(context), expiresAt: popupExpiry,
                request: .init(
                    requestKey: key, secureToken: params.secureToken, brn: brn,
                    requestId: record?.requestId))
            popupId = id
        }
        if let record { try await follow(key: key, record: record, context: context, popupId: popupId) }
        context.logger.debug(
            "pbba pop-up decision",
            metadata: [
                "pbba.requestId": .string(record?.requestId ?? "-"), "pbba.action": .string(decision.action.rawValue),
            ])
        return try Self.presentation(
            action: decision.action, popupId: popupId, secureToken: params.secureToken,
            bankApps: bankApps, brn: brn,
            expiresAt: popupId == nil ? (record?.expiresAt ?? popupExpiry) : popupExpiry,
            remembered: remembered, requestId: record?.requestId)
    }

    func showErrorPopup(_ params: ShowPBBAErrorPopup.Params, _ context: RequestContext) -> PBBAErrorPopup {
        var warnings: [LengthWarning] = []
        func check(_ field: String, _ text: String?, _ maximum: Int) {
            guard let text, text.count > maximum else { return }
            warnings.append(
                LengthWarning(
                    field: field, length: text.count, recommendedMaximum: maximum,
                    message: "\(field) has \(text.count) characters; at most \(maximum) are recommended"))
        }
        check("errorCode", params.errorCode, PopupTexts.recommendedErrorCodeLength)
        check("errorTitle", params.errorTitle, PopupTexts.recommendedErrorTitleLength)
        check("errorMessage", params.errorMessage, PopupTexts.recommendedErrorMessageLength)
        let popupId = SecureTokenGenerator.popupId(context)
        registry.showErrorPopup(popupId: popupId, errorCode: params.errorCode, owner: PopupOwner(context))
        return PBBAErrorPopup(
            popupId: popupId, kind: .error, errorCode: params.errorCode,
            errorTitle: params.errorTitle, errorMessage: params.errorMessage,
            buttons: PopupTexts.errorButtons, warnings: warnings)
    }

    public func openBankingApp(_ params: OpenBankingApp.Params, _ context: RequestContext) async throws -> BankAppLaunch {
        let key = try book.requestKey(for: params.secureToken)
        let record = try await book.record(key: key)
        if let record { try Self.requireInProgress(record, at: clock(of: record, context).now) }
        let bankApps = try await book.bankApps(profile: context.profile)
        guard bankApps > 0 else {
            try await book.setRemembered(false, profile: context.profile)
            throw PBBAError.noBankAppInstalled()
        }
        if let record, !registry.isFollowed(requestKey: key) {
            try await follow(key: key, record: record, context: context, popupId: nil)
        }
        return BankAppLaunch(
            url: try Self.bankAppURL(params.secureToken), appPicker: bankApps > 1,
            remembered: try await book.remembered(profile: context.profile))
    }

    func customUXConfiguration(_ params: GetCustomUXConfigurations.Params) throws -> CustomUXLayout {
        guard params.width.isFinite, params.width > 0 else {
            throw RPCError.invalidParams([
                .init(
                    pointer: "/width", keyword: "exclusiveMinimum",
                    message: "width must be a number of points greater than 0")
            ])
        }
        return CustomUXLayouts.layout(params.type, width: params.width)
    }

    // MARK: The Consumer on the pop-ups (sandbox)

    public func tapGetCode(_ params: PopupReference, _ context: RequestContext) async throws -> PBBAPopup {
        let popup = try registry.tapGetCode(params.popupId)
        let remembered = try await book.remembered(profile: popup.owner.profile)
        let bankApps = try await book.bankApps(profile: popup.owner.profile)
        return try Self.presentation(
            action: .showECommPopup, popupId: popup.popupId, secureToken: nil,
            bankApps: bankApps, brn: popup.request?.brn ?? "",
            expiresAt: popup.expiresAt ?? context.now, remembered: remembered,
            requestId: popup.request?.requestId)
    }

    /// The Consumer taps "Open banking app": the only way the remembered flag is set.
    func openBankingAppFromPopup(_ params: PopupReference) async throws -> BankAppLaunch {
        let popup = try registry.tapOpenBankingApp(params.popupId)
        let profile = popup.owner.profile
        let bankApps = try await book.bankApps(profile: profile)
        guard bankApps > 0 else {
            try await book.setRemembered(false, profile: profile)
            throw PBBAError.noBankAppInstalled()
        }
        try await book.setRemembered(true, profile: profile)
        return BankAppLaunch(
            url: try Self.bankAppURL(popup.request?.secureToken ?? ""), appPicker: bankApps > 1,
            remembered: true)
    }

    func openMoreAbout(_ params: PopupReference, _ context: RequestContext) throws -> MoreAboutPopup {
        let childId = SecureTokenGenerator.popupId(context)
        _ = try registry.openMoreAbout(from: params.popupId, childId: childId)
        return MoreAboutPopup(
            popupId: childId, kind: .moreAbout, parentPopupId: params.popupId,
            content: CustomUXLayouts.moreAbout)
    }

    // MARK: Helpers

    /// The clock a request's times are on: that of the profile whose call made it (the caller's
    /// for a record older than per-profile clocks).
    func clock(of record: PaymentRequestRecord, _ context: RequestContext) -> ProfileClock {
        ProfileClock(profile: record.clockProfile ?? context.profile, controls: context.sandbox)
    }

    /// Makes the caller's app the follower of the request, then reads it again: a decision stored
    /// between the caller's read and the watch (by another connection) found no follower to tell,
    /// so it is reported here. Later decisions claim the watch themselves.
    func follow(key: String, record: PaymentRequestRecord, context: RequestContext, popupId: String?) async throws {
        let clock = clock(of: record, context)
        registry.follow(
            requestKey: key, requestId: record.requestId, brn: record.brn, owner: PopupOwner(context),
            popupId: popupId, expiresAt: record.expiresAt, clock: clock)
        guard let latest = try await book.record(key: key) else { return }
        let status = latest.status(at: clock.now)
        guard status != .inProgress, let watch = registry.claim(requestKey: key) else { return }
        if status == .expired { registry.expiredOnDecision(watch) } else { registry.decided(status, watch) }
    }

    /// The two constraints the timers and the code lookup rely on, checked here as well as by the
    /// params schema, so that no validator setting can let a huge interval reach the timer
    /// arithmetic.
    static func check(_ params: ShowPBBAPopup.Params) throws(RPCError) {
        var violations: [SchemaViolation] = []
        if let violation = brnViolation(params.brn) { violations.append(violation) }
        if !(1...86_400).contains(params.expiryInterval) {
            violations.append(
                .init(
                    pointer: "/expiryInterval", keyword: "minimum",
                    message: "expiryInterval must be a whole number of seconds from 1 to 86400"))
        }
        if !violations.isEmpty { throw RPCError.invalidParams(violations) }
    }

    /// The violation of a code that is not exactly six ASCII letters or digits.
    static func brnViolation(_ brn: String) -> SchemaViolation? {
        let wellFormed =
            brn.unicodeScalars.count == 6
            && brn.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        return wellFormed ? nil : .init(pointer: "/brn", keyword: "pattern", message: "brn must be exactly 6 letters or digits")
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
        guard !secureToken.isEmpty, let url = URL(string: "zapp://" + secureToken) else {
            throw RPCError.invalidParams([
                .init(
                    pointer: "/secureToken", keyword: "pattern",
                    message: "secureToken cannot form a zapp:// URL")
            ])
        }
        return url
    }

    /// What the library shows for `action`.
    static func presentation(
        action: PopupAction, popupId: String?, secureToken: String?, bankApps: Int, brn: String,
        expiresAt: Date, remembered: Bool, requestId: String?
    ) throws -> PBBAPopup {
        switch action {
        case .openBankingApp:
            return PBBAPopup(
                action: action, popupId: nil, kind: nil,
                bankAppURL: try secureToken.map(bankAppURL), appPicker: bankApps > 1, code: nil,
                title: nil, buttons: [], instructions: [], moreAboutLink: false,
                expiresAt: expiresAt, remembered: remembered, requestId: requestId)
        case .showMCommPopup:
            return PBBAPopup(
                action: action, popupId: popupId, kind: .mcomm, bankAppURL: nil,
                appPicker: bankApps > 1, code: nil, title: PopupTexts.title,
                buttons: PopupTexts.mcommButtons, instructions: [], moreAboutLink: true,
                expiresAt: expiresAt, remembered: remembered, requestId: requestId)
        case .showECommPopup:
            return PBBAPopup(
                action: action, popupId: popupId, kind: .ecomm, bankAppURL: nil,
                appPicker: false, code: brn, title: PopupTexts.title, buttons: [],
                instructions: PopupTexts.ecommInstructions, moreAboutLink: true,
                expiresAt: expiresAt, remembered: remembered, requestId: requestId)
        }
    }
}
