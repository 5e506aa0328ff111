import Foundation
import PayRPCCore

/// The process-wide registry of what is on screen: payment requests watched by the connection
/// that showed them (requestKey → ``PaymentWatch``) and error pop-ups (popupId → entry).
///
/// It is how a status change caused by another connection (the bank app approving from a second
/// client) reaches the connection that showed the pop-up. Entries hold connections weakly and are
/// removed when the connection closes (``ConnectionSession/onClose(_:)``). Expiry is a loop timer
/// on the showing connection's loop; no thread sleeps. Thread-safe; notifications are sent
/// outside the lock.
final class PopupRegistry: @unchecked Sendable {
    private let lock = Mutex()
    private var watches: [String: PaymentWatch] = [:]
    private var paymentPopups: [String: String] = [:]   // popupId → requestKey
    private var errorPopups: [String: ErrorPopupEntry] = [:]
    private var hookedSessions: Set<UInt64> = []
    private var lastWatchID: UInt64 = 0
    private let now: @Sendable () -> Date

    /// - Parameter now: the clock expiry is measured with.
    init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    // MARK: Payment requests

    /// Makes `session` the watcher of the request, replacing an earlier watch of it (its timer
    /// is cancelled), and arms the expiry timer. Returns the new watch.
    @discardableResult
    func watch(requestKey: String, requestId: String, brn: String, session: ConnectionSession,
               popup: PaymentWatch.OnScreenPopup?, expiresAt: Date) -> PaymentWatch {
        let (watch, replaced, needsHook) = lock.withLock { () -> (PaymentWatch, PaymentWatch?, Bool) in
            lastWatchID += 1
            let watch = PaymentWatch(id: lastWatchID, requestKey: requestKey, requestId: requestId, brn: brn,
                                     session: session, sessionID: session.id, loop: session.loop, popup: popup,
                                     expiresAt: expiresAt, timer: nil)
            let replaced = watches.removeValue(forKey: requestKey)
            if let old = replaced?.popup { paymentPopups[old.popupId] = nil }
            watches[requestKey] = watch
            if let popup { paymentPopups[popup.popupId] = requestKey }
            return (watch, replaced, hookedSessions.insert(session.id).inserted)
        }
        replaced?.timer?.cancel()
        if needsHook {
            let sessionID = session.id
            session.onClose { [weak self] in self?.sessionClosed(sessionID) }
        }
        arm(requestKey: requestKey, watchID: watch.id, loop: watch.loop, expiresAt: expiresAt)
        return watch
    }

    /// Whether the request is watched (for tests and diagnostics).
    func isWatched(requestKey: String) -> Bool {
        lock.withLock { watches[requestKey] != nil }
    }

    /// Takes the watch of a request out of the registry (cancelling its timer) before its status
    /// is decided, so the expiry timer and a decision never both report.
    func claim(requestKey: String) -> PaymentWatch? {
        let watch = lock.withLock { () -> PaymentWatch? in
            guard let watch = watches.removeValue(forKey: requestKey) else { return nil }
            if let popup = watch.popup { paymentPopups[popup.popupId] = nil }
            return watch
        }
        watch?.timer?.cancel()
        return watch
    }

    /// Puts back a watch taken by ``claim(requestKey:)`` when no decision was made.
    func reinstate(_ watch: PaymentWatch) {
        guard let session = watch.session else { return }
        self.watch(requestKey: watch.requestKey, requestId: watch.requestId, brn: watch.brn, session: session,
                   popup: watch.popup, expiresAt: watch.expiresAt)
    }

    /// Reports a decided status to the watcher of a claimed watch.
    static func report(_ status: PaymentStatus, to watch: PaymentWatch) {
        guard let session = watch.session else { return }
        if status == .expired, let popup = watch.popup {
            session.notify(PopupDidExpire.self, .init(popupId: popup.popupId, requestId: watch.requestId,
                                                      brn: watch.brn, expiredAt: watch.expiresAt,
                                                      suggestedPopup: PBBAError.requestExpiredPopup))
        }
        session.notify(PaymentStatusChanged.self, .init(requestId: watch.requestId, brn: watch.brn,
                                                        status: status, popupId: watch.popup?.popupId))
    }

    private func arm(requestKey: String, watchID: UInt64, loop: any EventLoop, expiresAt: Date) {
        // Bounded, so no stored date can overflow the timer's milliseconds (intervals are ≤ 1 day).
        let remaining = min(max(0, expiresAt.timeIntervalSince(now())), 400 * 86_400)
        let delay = Duration.milliseconds(Int64((remaining * 1000).rounded(.up)))
        let job = loop.schedule(after: delay) { [weak self] in
            self?.timerFired(requestKey: requestKey, watchID: watchID)
        }
        let stale = lock.withLock { () -> Bool in
            guard watches[requestKey]?.id == watchID else { return true }
            watches[requestKey]?.timer = job
            return false
        }
        if stale { job.cancel() }
    }

    /// The expiry timer of a watch fired (on the loop thread): report the expiry unless the
    /// request was decided or shown again meanwhile. A timer that fires early by the wall clock
    /// is armed again for the rest.
    private func timerFired(requestKey: String, watchID: UInt64) {
        let current = now()
        enum Outcome { case none, early(PaymentWatch), expired(PaymentWatch) }
        let outcome = lock.withLock { () -> Outcome in
            guard let watch = watches[requestKey], watch.id == watchID else { return .none }
            if current < watch.expiresAt { return .early(watch) }
            watches[requestKey] = nil
            if let popup = watch.popup { paymentPopups[popup.popupId] = nil }
            return .expired(watch)
        }
        switch outcome {
        case .none:
            break
        case .early(let watch):
            arm(requestKey: requestKey, watchID: watchID, loop: watch.loop, expiresAt: watch.expiresAt)
        case .expired(let watch):
            Self.report(.expired, to: watch)
        }
    }

    // MARK: Pop-ups

    /// What is on screen under a pop-up id.
    enum OnScreen {
        /// A payment pop-up and the watch of its request.
        case payment(PaymentWatch)
        /// An error pop-up.
        case error(ErrorPopupEntry)
    }

    /// Shows an error pop-up for `session`.
    func showErrorPopup(popupId: String, errorCode: String?, session: ConnectionSession) {
        let needsHook = lock.withLock { () -> Bool in
            errorPopups[popupId] = ErrorPopupEntry(popupId: popupId, errorCode: errorCode, session: session,
                                                   sessionID: session.id)
            return hookedSessions.insert(session.id).inserted
        }
        if needsHook {
            let sessionID = session.id
            session.onClose { [weak self] in self?.sessionClosed(sessionID) }
        }
    }

    /// The pop-up on screen under `popupId`, if any.
    func popup(_ popupId: String) -> OnScreen? {
        lock.withLock {
            if let entry = errorPopups[popupId] { return .error(entry) }
            if let key = paymentPopups[popupId], let watch = watches[key] { return .payment(watch) }
            return nil
        }
    }

    /// The Consumer closed a pop-up: it leaves the screen (a payment pop-up's request stays
    /// watched for its status) and `pbba.popupDidCloseByUser` goes to its connection.
    /// - Throws: ``PBBAError`` `popupNotFound`.
    func closePopup(_ popupId: String) throws(PBBAError) {
        let closed = lock.withLock { () -> (ConnectionSession?, PopupDidCloseByUser.Payload)? in
            if let entry = errorPopups.removeValue(forKey: popupId) {
                return (entry.session, .init(popupId: popupId, kind: .error, requestId: nil))
            }
            guard let key = paymentPopups.removeValue(forKey: popupId), var watch = watches[key],
                  let popup = watch.popup else { return nil }
            watch.popup = nil
            watches[key] = watch
            return (watch.session, .init(popupId: popupId, kind: popup.kind, requestId: watch.requestId))
        }
        guard let (session, payload) = closed else { throw PBBAError.popupNotFound(popupId) }
        session?.notify(PopupDidCloseByUser.self, payload)
    }

    /// The Consumer tapped the retry button of an error pop-up: it is dismissed and
    /// `pbba.popupRetryPaymentRequest` goes to its connection.
    /// - Throws: ``PBBAError`` `popupNotFound`, `wrongPopupKind` for a payment pop-up.
    func tapTryAgain(_ popupId: String) throws(PBBAError) {
        let result = lock.withLock { () -> Result<ErrorPopupEntry, PBBAError> in
            if let entry = errorPopups.removeValue(forKey: popupId) { return .success(entry) }
            if let key = paymentPopups[popupId], let kind = watches[key]?.popup?.kind {
                return .failure(.wrongPopupKind(popupId, kind: kind, expected: [.error]))
            }
            return .failure(.popupNotFound(popupId))
        }
        let entry = try result.get()
        entry.session?.notify(PopupRetryPaymentRequest.self, .init(popupId: popupId, errorCode: entry.errorCode))
    }

    /// The Consumer tapped "Get code" on the M-COMM pop-up: it now shows the code (E-COMM).
    /// Returns the watch with the changed pop-up.
    /// - Throws: ``PBBAError`` `popupNotFound`, `wrongPopupKind` for an error pop-up.
    func tapGetCode(_ popupId: String) throws(PBBAError) -> PaymentWatch {
        let result = lock.withLock { () -> Result<PaymentWatch, PBBAError> in
            if errorPopups[popupId] != nil {
                return .failure(.wrongPopupKind(popupId, kind: .error, expected: [.mcomm, .ecomm]))
            }
            guard let key = paymentPopups[popupId], var watch = watches[key], watch.popup != nil else {
                return .failure(.popupNotFound(popupId))
            }
            watch.popup?.kind = .ecomm
            watches[key] = watch
            return .success(watch)
        }
        return try result.get()
    }

    // MARK: Connections

    /// A connection closed: everything it showed leaves the screen and its timers stop.
    func sessionClosed(_ sessionID: UInt64) {
        let timers = lock.withLock { () -> [ScheduledJob] in
            hookedSessions.remove(sessionID)
            var timers: [ScheduledJob] = []
            for (key, watch) in watches where watch.sessionID == sessionID {
                watches[key] = nil
                if let popup = watch.popup { paymentPopups[popup.popupId] = nil }
                if let timer = watch.timer { timers.append(timer) }
            }
            for (id, entry) in errorPopups where entry.sessionID == sessionID { errorPopups[id] = nil }
            return timers
        }
        for timer in timers { timer.cancel() }
    }
}
