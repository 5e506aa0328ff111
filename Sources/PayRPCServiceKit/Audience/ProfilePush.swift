import PayRPCCore
import PayRPCJSON
import PayRPCStore

/// A notification for every connection of a profile, encoded once where it was caused: delivered
/// on this gateway (``ProfileAudience/deliver(_:)``) and published in the transaction that
/// records its cause (``publish(in:)``) for the other gateways of the same store.
public struct ProfilePush: Sendable {
    /// The notification's method name.
    let name: String
    /// Its params' JSON.
    let params: [UInt8]
    /// The profile whose connections hear it.
    let profile: String
    /// The store's event channel of the audience that made it.
    let channel: String
    /// The gateway (process) where it was caused: that one delivered it already.
    let origin: String
    /// Its key among the callbacks held for the profile's first connection on any gateway
    /// (``HeldPushes``); nil when it is not held in the store (one gateway, or not held at all).
    let heldKey: String?

    init<N: RPCNotification>(
        _ notification: N.Type, _ payload: N.Payload, profile: String, channel: String, origin: String,
        heldKey: String? = nil
    ) {
        var params = JSONWriter(capacity: 128)
        payload.encode(to: &params)
        self.name = N.name
        self.params = params.bytes
        self.profile = profile
        self.channel = channel
        self.origin = origin
        self.heldKey = heldKey
    }

    /// Publishes the notification in `transaction`, so that the other gateways' connections of
    /// the profile hear it when (and only if) the transaction commits; when it is held in the
    /// store, it is written there too, for the profile's first connection on any gateway.
    /// - Throws: ``StoreError``.
    public func publish(in transaction: StoreTransaction) throws {
        var members = [
            JSONValue.Member("origin", .string(origin)), JSONValue.Member("profile", .string(profile)),
            JSONValue.Member("method", .string(name)),
            JSONValue.Member("params", .string(String(decoding: params, as: UTF8.self))),
        ]
        if let heldKey {
            try HeldPushes.hold(self, key: heldKey, in: transaction)
            members.append(JSONValue.Member("held", .string(heldKey)))
        }
        try transaction.publish(JSONValue.object(members), on: channel)
    }
}
