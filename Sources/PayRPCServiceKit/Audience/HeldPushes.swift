#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCStore
import PayRPCSync

/// The callbacks of a ``ProfileAudience`` that wait for the first connection of their profile on
/// any gateway sharing the store: what one gateway's ``ConnectionDirectory`` does in memory, kept
/// in the store instead (namespace `CHANNEL.held`, one document per callback, keyed in the order
/// they were caused), so that a profile whose connection appears on another gateway than the one
/// that caused the callback gets it, once.
///
/// Every callback is written in the transaction that records its cause (``ProfilePush/publish(in:)``)
/// and taken out again by the first gateway that sends it to a connection of the profile: a
/// gateway that hears it from the store and has connections of the profile deletes it, then sends
/// it to them; the gateway that caused it sends it to its own connections at once and deletes it
/// after; a connection admitted on any gateway (at its start or `rpc.hello`) takes every callback
/// still held for its profile, in a transaction that deletes them, and gets them in order. A
/// connection gets a callback once, whichever of these ways it comes (each gateway remembers what
/// it sent to which of its connections). The work runs one step at a time per audience, in order.
///
/// Only between the commit of a callback's cause and the first gateway's delete can a connection
/// that appears then get it besides the connections that were open (on one gateway it could not).
final class HeldPushes: Sendable {
    let store: any StateStore
    /// The namespace of the held callbacks.
    let namespace: String
    private let runner = DeliveryRunner()
    /// The last step queued: the next one waits for it.
    private let last = Lock<Task<Void, Never>?>(nil)
    /// The held callbacks' keys sent to each connection here.
    private let sent = Lock<[UInt64: Set<String>]>([:])
    private let counter = Lock<UInt64>(0)
    /// This gateway's mark in the keys it makes.
    private let origin: String
    /// Where a held callback that could not be deleted is reported.
    private let logger = Logger(label: "payrpc.audience")

    /// The held callbacks of `channel`'s audience in `store`.
    init(store: any StateStore, channel: String, origin: String) {
        self.store = store
        self.namespace = Self.namespace(channel)
        self.origin = origin
    }

    /// The namespace of the held callbacks of `channel`.
    static func namespace(_ channel: String) -> String { channel + ".held" }

    /// A new key, after every key this gateway made before (and, by its time, after those other
    /// gateways made earlier).
    func newKey() -> String {
        let count = counter.withLock { counter -> UInt64 in
            counter += 1
            return counter
        }
        let milliseconds = String(UInt64(max(0, Date().timeIntervalSince1970 * 1000)))
        let padded = String(repeating: "0", count: max(0, 15 - milliseconds.count)) + milliseconds
        let sequence = String(count)
        return padded + "-" + origin + "-" + String(repeating: "0", count: max(0, 12 - sequence.count)) + sequence
    }

    /// Writes the callback in `transaction`.
    /// - Throws: ``StoreError``.
    static func hold(_ push: ProfilePush, key: String, in transaction: StoreTransaction) throws {
        let held = JSONValue.object([
            JSONValue.Member("method", .string(push.name)),
            JSONValue.Member("params", .string(String(decoding: push.params, as: UTF8.self))),
        ])
        try transaction.put(held, profile: push.profile, namespace: namespace(push.channel), key: key)
    }

    /// The gateway that caused the callback: sent to its connections of the profile now, and no
    /// longer held when there was one.
    func caused(name: String, params: [UInt8], key: String, profile: String, connections: ConnectionDirectory) {
        guard send(name: name, params: params, key: key, to: connections.sessions(profile: profile)) > 0 else { return }
        enqueue { [self] in await release(key, profile: profile) }
    }

    /// A callback another gateway caused: when this one has connections of the profile, no longer
    /// held, then sent to them.
    func heard(name: String, params: [UInt8], key: String, profile: String, connections: ConnectionDirectory) {
        enqueue { [self] in
            guard !connections.sessions(profile: profile).isEmpty else { return }
            await release(key, profile: profile)
            send(name: name, params: params, key: key, to: connections.sessions(profile: profile))
        }
    }

    /// A connection admitted: it gets the callbacks held for its profile, which are held no longer.
    func admitted(_ session: ConnectionSession) {
        let profile = session.profile
        enqueue { [self] in
            let namespace = self.namespace
            do {
                let waiting = try await store.read(namespace) { documents in
                    try !documents.list(JSONValue.self, profile: profile, namespace: namespace).isEmpty
                }
                guard waiting else { return }
                let taken = try await store.transaction(namespace + ".take") { documents in
                    let held = try documents.list(JSONValue.self, profile: profile, namespace: namespace)
                    for (key, _) in held { try documents.delete(profile: profile, namespace: namespace, key: key) }
                    return held
                }
                for (key, held) in taken {
                    guard let name = held["method"]?.stringValue, let params = held["params"]?.stringValue else { continue }
                    send(name: name, params: Array(params.utf8), key: key, to: [session])
                }
            } catch {
                // Left held: the profile's next connection takes it.
            }
        }
    }

    /// Sends to each of `sessions` that did not get the callback `key` yet; how many there were.
    @discardableResult
    private func send(name: String, params: [UInt8], key: String, to sessions: [ConnectionSession]) -> Int {
        var count = 0
        for session in sessions {
            let (isNew, first) = sent.withLock { sent -> (Bool, Bool) in
                let first = sent[session.id] == nil
                return (sent[session.id, default: []].insert(key).inserted, first)
            }
            if first { session.onClose { [weak self] in _ = self?.sent.withLock { $0.removeValue(forKey: session.id) } } }
            guard isNew else { continue }
            _ = session.notify(name: name, params: params)
            count += 1
        }
        return count
    }

    /// Deletes the held callback `key` (sent here; another gateway may have deleted it already).
    private func release(_ key: String, profile: String) async {
        let namespace = self.namespace
        do {
            try await store.transaction(namespace + ".release") { documents in
                try documents.delete(profile: profile, namespace: namespace, key: key)
            }
        } catch {
            logger.warning(
                "a callback sent to the profile's connections could not be deleted from the held ones: a connection of the profile admitted later gets it too",
                metadata: ["profile": .string(profile), "key": .string(key), "error": .string("\(error)")])
        }
    }

    /// Runs `step` after the steps queued before it.
    private func enqueue(_ step: @escaping @Sendable () async -> Void) {
        last.withLock { last in
            let previous = last
            last = runner.start {
                await previous?.value
                await step()
            }
        }
    }
}
