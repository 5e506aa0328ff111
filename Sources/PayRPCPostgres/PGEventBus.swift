import Logging
import PayRPCSync
import PayRPCStore

/// The events of a shared store, on every instance: a transaction adds its events to the
/// `payrpc_event` outbox and sends `NOTIFY payrpc_events` with their sequence numbers in the
/// same transaction (``PGStatements/publishEvent``); each instance's ``PGListener`` hears the
/// notification at the commit and hands the event to the subscribers of its channel.
///
/// NOTIFY has no replay, so after a reconnection the bus reads the outbox by sequence from a
/// little before the highest sequence it delivered (commits do not finish in sequence order) and
/// delivers what it has not delivered yet; it remembers the sequences it delivered, so nothing
/// reaches a subscriber twice. A notification too long to carry its payload carries only the
/// sequence, and the payload is read from the outbox. Events are kept ``retention`` long.
final class PGEventBus: Sendable {
    /// The notification channel of every event.
    static let channel = "payrpc_events"
    /// Payloads at most this long (with their channel's name) travel inside the notification
    /// (NOTIFY's limit is 8000 bytes).
    static let inlineLimit = 7000
    /// How long events stay in the outbox (milliseconds): longer than any reconnection.
    static let retention: Int64 = 10 * 60 * 1000
    /// How far below the highest delivered sequence a catch-up reads: more than the
    /// transactions that can commit out of order meanwhile.
    static let slack: Int64 = 10_000

    private struct State {
        /// The highest sequence delivered, or seen at start (nothing older is delivered).
        var highest: Int64?
        /// The sequences above `highest - slack` that were delivered.
        var delivered: Set<Int64> = []
    }

    private let state = Lock(State())
    private let subscribers = ChannelSubscribers()
    private let listener: PGListener
    private let logger: Logger

    init(listener: PGListener, logger: Logger) {
        self.listener = listener
        self.logger = logger
        listener.listen(Self.channel) { [weak self] payload in self?.notified(payload) }
    }

    /// Adds a subscriber of `channel` until the subscription is cancelled.
    func subscribe(_ channel: String, _ handler: @escaping @Sendable (String) -> Void) -> StoreSubscription {
        subscribers.add(channel, handler)
    }

    /// After a (re)connection, on the listener's connection: delivers what was published while it
    /// was away. The first time, only notes where the outbox ends.
    func catchUp(_ connection: PGConnection) {
        do {
            guard let highest = state.withLock({ $0.highest }) else {
                let end = Int64(try connection.execute("SELECT coalesce(max(seq), 0) FROM payrpc_event").scalar ?? "0") ?? 0
                state.withLock { state in state.highest = max(state.highest ?? 0, end) }
                return
            }
            let rows = try connection.execute(
                "SELECT seq, channel, payload FROM payrpc_event WHERE seq > $1 ORDER BY seq", [String(highest - Self.slack)]
            ).rows
            for row in rows {
                guard let seq = row[0].flatMap({ Int64($0) }), let channel = row[1], let payload = row[2] else { continue }
                deliver(seq: seq, channel: channel, payload: payload)
            }
        } catch {
            logger.warning(
                "store: catching up on events failed; they are read again at the next reconnection",
                metadata: ["store.error": "\(error)"])
        }
    }

    /// A notification: `SEQ CHANNEL\nPAYLOAD`, or `SEQ` alone (the payload is in the outbox).
    private func notified(_ text: String) {
        guard let space = text.firstIndex(of: " ") else {
            guard let seq = Int64(text) else { return }
            listener.perform { [weak self] connection in self?.fetch(seq, connection) }
            return
        }
        guard let seq = Int64(text[..<space]), let newline = text[space...].firstIndex(of: "\n") else { return }
        let channel = String(text[text.index(after: space)..<newline])
        deliver(seq: seq, channel: channel, payload: String(text[text.index(after: newline)...]))
    }

    private func fetch(_ seq: Int64, _ connection: PGConnection) {
        guard
            let row = try? connection.execute("SELECT channel, payload FROM payrpc_event WHERE seq = $1", [String(seq)]).rows
                .first,
            let channel = row[0], let payload = row[1]
        else { return }
        deliver(seq: seq, channel: channel, payload: payload)
    }

    /// Hands an event to its subscribers unless it was delivered before.
    private func deliver(seq: Int64, channel: String, payload: String) {
        let fresh = state.withLock { state -> Bool in
            if let highest = state.highest, seq <= highest - Self.slack { return false }
            guard state.delivered.insert(seq).inserted else { return false }
            if seq > (state.highest ?? 0) {
                state.highest = seq
                if state.delivered.count > 4 * Int(Self.slack) {
                    let floor = seq - Self.slack
                    state.delivered = state.delivered.filter { $0 > floor }
                }
            }
            return true
        }
        guard fresh else { return }
        for handler in subscribers.handlers(channel) { handler(payload) }
    }
}
