import Foundation
import PayRPCCore
import PayRPCSandbox
import PayRPCSync

/// The process-wide registry of what is on screen and who follows which payment request:
/// pop-ups by id (``ScreenPopup``) and requests by store key (``PaymentWatch``).
///
/// It is how a status change caused by another connection (the bank app approving from a second
/// client) reaches the connection that showed the pop-up. Entries hold connections weakly and are
/// removed when the connection closes (``ConnectionSession/onClose(_:)``).
///
/// Time: a pop-up's expiry is measured on the sandbox clock of the profile that showed it, a
/// request's on that of the profile that made it. A loop timer on the showing connection's loop
/// fires at the expiry (no thread sleeps); when the tester moves a profile's clock
/// (`sandbox.clock.advance`), whatever became due on it fires at once and the other timers are
/// armed again for the time left. A pop-up's expiry and its
/// request's are separate: the pop-up's `expiryInterval` never changes the request's own.
///
/// Several gateways on one store: these timers stay with the connection that showed the pop-up,
/// on its gateway, and are not kept in the store, because nothing of them outlives that
/// connection. What they fire is only pushed to it (`pbba.popupDidExpire`, the expired status);
/// the request's expiry itself is a stored time that every gateway checks when it reads or
/// decides the request. A decision made through another gateway reaches the connection through
/// the store's events (``PBBAStateBook/onDecision(_:)``).
/// Thread-safe; notifications are sent outside the lock.
final class PopupRegistry: Sendable {
    private let state = Lock(State())

    private struct State {
        var watches: [String: PaymentWatch] = [:]
        var popups: [String: ScreenPopup] = [:]
        var hookedSessions: Set<UInt64> = []
        var observedClocks: Set<ObjectIdentifier> = []
        var lastGeneration: UInt64 = 0

        mutating func nextGeneration() -> UInt64 {
            lastGeneration += 1
            return lastGeneration
        }
    }

    /// What a timer is for.
    private enum TimerTarget {
        case watch(requestKey: String, generation: UInt64)
        case popup(popupId: String, generation: UInt64)
    }

    init() {}

    // MARK: Showing

    /// Puts a payment pop-up on screen and arms its expiry timer.
    func showPaymentPopup(
        popupId: String, kind: PopupKind, owner: PopupOwner, expiresAt: Date,
        request: ScreenPopup.ShownRequest
    ) {
        let generation = insert(owner) { state, generation in
            state.popups[popupId] = ScreenPopup(
                generation: generation, popupId: popupId, kind: kind, owner: owner,
                expiresAt: expiresAt, timer: nil, request: request, outcome: nil,
                errorCode: nil, parentPopupId: nil)
        }
        arm(.popup(popupId: popupId, generation: generation), loop: owner.loop, clock: owner.clock, at: expiresAt)
    }

    /// Puts an error pop-up on screen (it does not expire).
    func showErrorPopup(popupId: String, errorCode: String?, owner: PopupOwner) {
        insert(owner) { state, generation in
            state.popups[popupId] = ScreenPopup(
                generation: generation, popupId: popupId, kind: .error, owner: owner,
                expiresAt: nil, timer: nil, request: nil, outcome: nil,
                errorCode: errorCode, parentPopupId: nil)
        }
    }

    /// Makes `owner` the follower of the request, replacing an earlier watch of it (its timer is
    /// cancelled), and arms the timer of the request's expiry, measured on `clock`.
    func follow(
        requestKey: String, requestId: String, brn: String, owner: PopupOwner, popupId: String?,
        expiresAt: Date, clock: ProfileClock
    ) {
        var replaced: PaymentWatch?
        let generation = insert(owner, clock: clock) { state, generation in
            replaced = state.watches.updateValue(
                PaymentWatch(
                    generation: generation, requestKey: requestKey, requestId: requestId, brn: brn,
                    owner: owner, clock: clock, popupId: popupId, expiresAt: expiresAt, timer: nil),
                forKey: requestKey)
        }
        replaced?.timer?.cancel()
        arm(.watch(requestKey: requestKey, generation: generation), loop: owner.loop, clock: clock, at: expiresAt)
    }

    /// Whether the request is followed.
    func isFollowed(requestKey: String) -> Bool {
        state.withLock { $0.watches[requestKey] != nil }
    }

    /// A request from another backend was registered (`sandbox.pbba.registerExternalRequest`):
    /// the pop-ups already showing its token learn its id, and the app that showed the latest of
    /// them follows it.
    func link(requestKey: String, requestId: String, brn: String, expiresAt: Date, clock: ProfileClock) {
        let latest = state.withLock { state -> ScreenPopup? in
            var latest: ScreenPopup?
            for (id, popup) in state.popups where popup.request?.requestKey == requestKey {
                state.popups[id]?.request?.requestId = requestId
                if popup.parentPopupId == nil, popup.generation > (latest?.generation ?? 0) { latest = popup }
            }
            return latest
        }
        if let latest, !isFollowed(requestKey: requestKey) {
            follow(
                requestKey: requestKey, requestId: requestId, brn: brn, owner: latest.owner,
                popupId: latest.popupId, expiresAt: expiresAt, clock: clock)
        }
    }

    /// Records what `owner` showed under the lock and hooks its connection's close and its clock.
    @discardableResult
    private func insert(
        _ owner: PopupOwner, clock: ProfileClock? = nil,
        _ body: (inout State, UInt64) -> Void
    ) -> UInt64 {
        let controls = (clock ?? owner.clock).controls
        let (generation, hookSession, observeClock) = state.withLock { state -> (UInt64, Bool, Bool) in
            let generation = state.nextGeneration()
            body(&state, generation)
            return (
                generation, state.hookedSessions.insert(owner.sessionID).inserted,
                state.observedClocks.insert(ObjectIdentifier(controls)).inserted
            )
        }
        if hookSession, let session = owner.session {
            let sessionID = owner.sessionID
            session.onClose { [weak self] in self?.sessionClosed(sessionID) }
        }
        if observeClock {
            controls.onClockChange { [weak self, weak controls] profile, now in
                guard let self, let controls else { return }
                self.clockMoved(profile: profile, controls: controls, now: now)
            }
        }
        return generation
    }

    // MARK: Decisions

    /// Takes the watch of a request out of the registry (cancelling its timer) before its status
    /// is decided, so the expiry timer and a decision never both report.
    func claim(requestKey: String) -> PaymentWatch? {
        let watch = state.withLock { $0.watches.removeValue(forKey: requestKey) }
        watch?.timer?.cancel()
        return watch
    }

    /// Puts back a watch taken by ``claim(requestKey:)`` when no decision was made.
    func reinstate(_ watch: PaymentWatch) {
        follow(
            requestKey: watch.requestKey, requestId: watch.requestId, brn: watch.brn, owner: watch.owner,
            popupId: watch.popupId, expiresAt: watch.expiresAt, clock: watch.clock)
    }

    /// The bank app decided a claimed request: its pop-up, still on screen, shows the decision
    /// (and no longer expires) and the follower gets `pbba.paymentStatusChanged`.
    func decided(_ status: PaymentStatus, _ watch: PaymentWatch) {
        let (onScreen, timer) = state.withLock { state -> (Bool, ScheduledJob?) in
            guard let popupId = watch.popupId, state.popups[popupId]?.request?.requestKey == watch.requestKey
            else { return (false, nil) }
            state.popups[popupId]?.outcome = status
            defer { state.popups[popupId]?.timer = nil }
            return (true, state.popups[popupId]?.timer)
        }
        timer?.cancel()
        Self.reportStatus(status, of: watch, popupOnScreen: onScreen)
    }

    /// A decision found the claimed request expired before its timer said so: whatever of its
    /// owner's is due now expires, and the follower hears of the request.
    func expiredOnDecision(_ watch: PaymentWatch) {
        let expired = fireDue(profile: watch.clock.profile, controls: watch.clock.controls, now: watch.clock.now)
        let onScreen = watch.popupId.map { expired.contains($0) || popup($0) != nil } ?? false
        Self.reportStatus(.expired, of: watch, popupOnScreen: onScreen)
    }

    /// `pbba.paymentStatusChanged`, naming the pop-up when it is (or was, until this moment) on screen.
    private static func reportStatus(_ status: PaymentStatus, of watch: PaymentWatch, popupOnScreen: Bool) {
        watch.owner.session?.notify(
            PaymentStatusChanged.self,
            .init(
                requestId: watch.requestId, brn: watch.brn, status: status, popupId: popupOnScreen ? watch.popupId : nil))
    }

    // MARK: Time

    private func arm(_ target: TimerTarget, loop: any EventLoop, clock: ProfileClock, at expiresAt: Date) {
        // Bounded, so no date can overflow the timer's milliseconds (intervals are ≤ 1 day).
        let remaining = min(max(0, expiresAt.timeIntervalSince(clock.now)), 400 * 86_400)
        let delay = Duration.milliseconds(Int64((remaining * 1000).rounded(.up)))
        let job = loop.schedule(after: delay) { [weak self] in self?.timerFired(target) }
        let stale = state.withLock { state -> Bool in
            switch target {
            case let .watch(key, generation):
                guard state.watches[key]?.generation == generation else { return true }
                state.watches[key]?.timer = job
            case let .popup(id, generation):
                guard state.popups[id]?.generation == generation, state.popups[id]?.outcome == nil else { return true }
                state.popups[id]?.timer = job
            }
            return false
        }
        if stale { job.cancel() }
    }

    /// A timer fired (on its loop): everything of its owner's profile that is due expires. A
    /// timer that fired before its sandbox time is armed again for the rest.
    private func timerFired(_ target: TimerTarget) {
        let pending = state.withLock { state -> (any EventLoop, ProfileClock, Date)? in
            switch target {
            case let .watch(key, generation):
                guard let watch = state.watches[key], watch.generation == generation else { return nil }
                return (watch.owner.loop, watch.clock, watch.expiresAt)
            case let .popup(id, generation):
                guard let popup = state.popups[id], popup.generation == generation, popup.outcome == nil,
                    let expiresAt = popup.expiresAt
                else { return nil }
                return (popup.owner.loop, popup.owner.clock, expiresAt)
            }
        }
        guard let (loop, clock, expiresAt) = pending else { return }
        let now = clock.now
        if now < expiresAt {
            arm(target, loop: loop, clock: clock, at: expiresAt)
        } else {
            fireDue(profile: clock.profile, controls: clock.controls, now: now)
        }
    }

    /// The tester moved a profile's clock: what became due fires now, the rest is armed again.
    private func clockMoved(profile: String, controls: any SandboxAccess, now: Date) {
        fireDue(profile: profile, controls: controls, now: now)
        let remaining = state.withLock { state -> [(TimerTarget, any EventLoop, ProfileClock, Date, ScheduledJob?)] in
            var remaining: [(TimerTarget, any EventLoop, ProfileClock, Date, ScheduledJob?)] = []
            for (key, watch) in state.watches where watch.clock.isClock(of: profile, on: controls) {
                remaining.append(
                    (
                        .watch(requestKey: key, generation: watch.generation), watch.owner.loop, watch.clock,
                        watch.expiresAt, watch.timer
                    ))
            }
            for (id, popup) in state.popups where popup.owner.clock.isClock(of: profile, on: controls) {
                guard popup.outcome == nil, let expiresAt = popup.expiresAt else { continue }
                remaining.append(
                    (
                        .popup(popupId: id, generation: popup.generation), popup.owner.loop, popup.owner.clock,
                        expiresAt, popup.timer
                    ))
            }
            return remaining
        }
        for (target, loop, clock, expiresAt, timer) in remaining {
            timer?.cancel()
            arm(target, loop: loop, clock: clock, at: expiresAt)
        }
    }

    /// Expires everything of the profile that is due at `now`: undecided pop-ups first
    /// (`pbba.popupDidExpire`; they leave the screen with their "More about" pop-ups), then
    /// followed requests (`pbba.paymentStatusChanged` expired).
    /// Returns the ids of the pop-ups that expired.
    @discardableResult
    private func fireDue(profile: String, controls: any SandboxAccess, now: Date) -> Set<String> {
        let (popups, watches, onScreen) = state.withLock { state -> ([ScreenPopup], [PaymentWatch], Set<String>) in
            let duePopups = state.popups.values.filter { popup in
                guard popup.owner.clock.isClock(of: profile, on: controls), popup.outcome == nil,
                    let expiresAt = popup.expiresAt
                else { return false }
                return expiresAt <= now
            }.sorted { $0.generation < $1.generation }
            for popup in duePopups { Self.remove(popup.popupId, from: &state) }
            let dueWatches = state.watches.values.filter {
                $0.clock.isClock(of: profile, on: controls) && $0.expiresAt <= now
            }.sorted { $0.generation < $1.generation }
            for watch in dueWatches { state.watches[watch.requestKey] = nil }
            let onScreen = Set(dueWatches.compactMap(\.popupId).filter { state.popups[$0] != nil })
            return (duePopups, dueWatches, onScreen)
        }
        let expiredIds = Set(popups.map(\.popupId))
        for popup in popups {
            popup.timer?.cancel()
            guard let request = popup.request, let expiresAt = popup.expiresAt else { continue }
            popup.owner.session?.notify(
                PopupDidExpire.self,
                .init(
                    popupId: popup.popupId, requestId: request.requestId, brn: request.brn, expiredAt: expiresAt,
                    suggestedPopup: PBBAError.requestExpiredPopup))
        }
        for watch in watches {
            watch.timer?.cancel()
            let shown = watch.popupId.map { expiredIds.contains($0) || onScreen.contains($0) } ?? false
            Self.reportStatus(.expired, of: watch, popupOnScreen: shown)
        }
        return expiredIds
    }

    // MARK: The Consumer and the merchant act on pop-ups

    /// The pop-up on screen under `popupId`, if any.
    func popup(_ popupId: String) -> ScreenPopup? {
        state.withLock { $0.popups[popupId] }
    }

    /// The Consumer closed a pop-up with its top-right button: it leaves the screen (a payment
    /// pop-up's request stays followed) and `pbba.popupDidCloseByUser` goes to its app. A "More
    /// about" pop-up just closes: the delegate has no callback for it.
    /// - Throws: ``PBBAError`` `popupNotFound`.
    func closeByUser(_ popupId: String) throws(PBBAError) {
        let closed = state.withLock { state -> ScreenPopup? in
            guard let popup = state.popups[popupId] else { return nil }
            Self.remove(popupId, from: &state)
            return popup
        }
        guard let closed else { throw PBBAError.popupNotFound(popupId) }
        closed.timer?.cancel()
        guard closed.kind != .moreAbout else { return }
        closed.owner.session?.notify(
            PopupDidCloseByUser.self,
            .init(
                popupId: popupId, kind: closed.kind,
                requestId: closed.request?.requestId))
    }

    /// The merchant app dismissed a pop-up it showed (journey step 5): it leaves the screen with
    /// no callback; a payment request stays followed.
    /// - Throws: ``PBBAError`` `popupNotFound`, also for a pop-up another connection shows.
    func dismiss(_ popupId: String, by sessionID: UInt64) throws(PBBAError) -> ScreenPopup {
        let dismissed = state.withLock { state -> ScreenPopup? in
            guard let popup = state.popups[popupId], popup.owner.sessionID == sessionID else { return nil }
            Self.remove(popupId, from: &state)
            return popup
        }
        guard let dismissed else { throw PBBAError.popupNotFound(popupId) }
        dismissed.timer?.cancel()
        return dismissed
    }

    /// The Consumer tapped the retry button of an error pop-up: it leaves the screen and
    /// `pbba.popupRetryPaymentRequest` goes to its app.
    /// - Throws: ``PBBAError`` `popupNotFound`, `wrongPopupKind` for any other pop-up.
    func tapTryAgain(_ popupId: String) throws(PBBAError) {
        let popup = try take(popupId, kinds: [.error])
        popup.owner.session?.notify(PopupRetryPaymentRequest.self, .init(popupId: popupId, errorCode: popup.errorCode))
    }

    /// The Consumer tapped "Get code" on the M-COMM pop-up: it now shows the code (E-COMM).
    /// Returns the pop-up as shown.
    /// - Throws: ``PBBAError`` `popupNotFound`, `wrongPopupKind` for any other pop-up.
    func tapGetCode(_ popupId: String) throws(PBBAError) -> ScreenPopup {
        try change(popupId, kinds: [.mcomm]) { $0.kind = .ecomm }
    }

    /// The Consumer tapped "Open banking app" on the M-COMM pop-up. Returns the pop-up (its
    /// request's secureToken forms the `zapp://` URL; its owner's profile keeps the remembered
    /// flag). The pop-up stays on screen.
    /// - Throws: ``PBBAError`` `popupNotFound`, `wrongPopupKind` for any other pop-up.
    func tapOpenBankingApp(_ popupId: String) throws(PBBAError) -> ScreenPopup {
        try change(popupId, kinds: [.mcomm]) { _ in }
    }

    /// The Consumer tapped "More about Pay by Bank app" on a payment pop-up: the "More about"
    /// pop-up opens over it, with the id `childId`.
    /// - Throws: ``PBBAError`` `popupNotFound`, `wrongPopupKind` for an error or "More about" pop-up.
    func openMoreAbout(from popupId: String, childId: String) throws(PBBAError) -> ScreenPopup {
        let parent = try change(popupId, kinds: [.mcomm, .ecomm]) { _ in }
        insert(parent.owner) { state, generation in
            state.popups[childId] = ScreenPopup(
                generation: generation, popupId: childId, kind: .moreAbout,
                owner: parent.owner, expiresAt: nil, timer: nil,
                request: parent.request, outcome: nil, errorCode: nil,
                parentPopupId: popupId)
        }
        return parent
    }

    /// Changes a pop-up of one of `kinds` (or, `removing`, takes it off the screen) and returns it.
    private func change(
        _ popupId: String, kinds: [PopupKind], removing: Bool = false,
        _ body: (inout ScreenPopup) -> Void
    ) throws(PBBAError) -> ScreenPopup {
        let result = state.withLock { state -> Result<ScreenPopup, PBBAError> in
            guard var popup = state.popups[popupId] else { return .failure(.popupNotFound(popupId)) }
            guard kinds.contains(popup.kind) else {
                return .failure(.wrongPopupKind(popupId, kind: popup.kind, expected: kinds))
            }
            body(&popup)
            if removing { Self.remove(popupId, from: &state) } else { state.popups[popupId] = popup }
            return .success(popup)
        }
        return try result.get()
    }

    private func take(_ popupId: String, kinds: [PopupKind]) throws(PBBAError) -> ScreenPopup {
        let popup = try change(popupId, kinds: kinds, removing: true) { _ in }
        popup.timer?.cancel()
        return popup
    }

    /// Removes a pop-up and the "More about" pop-ups opened from it.
    private static func remove(_ popupId: String, from state: inout State) {
        state.popups[popupId] = nil
        for (id, popup) in state.popups where popup.parentPopupId == popupId { state.popups[id] = nil }
    }

    // MARK: Connections

    /// A connection closed: everything it showed leaves the screen and its timers stop.
    func sessionClosed(_ sessionID: UInt64) {
        let timers = state.withLock { state -> [ScheduledJob] in
            state.hookedSessions.remove(sessionID)
            var timers: [ScheduledJob] = []
            for (key, watch) in state.watches where watch.owner.sessionID == sessionID {
                state.watches[key] = nil
                if let timer = watch.timer { timers.append(timer) }
            }
            for (id, popup) in state.popups where popup.owner.sessionID == sessionID {
                state.popups[id] = nil
                if let timer = popup.timer { timers.append(timer) }
            }
            return timers
        }
        for timer in timers { timer.cancel() }
    }
}
