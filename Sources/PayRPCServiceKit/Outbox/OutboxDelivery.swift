import Logging

/// What delivers a service's outbox: the service writes how one item is sent
/// (``send(_:profile:)``, each step recorded in the item); when and how often comes from here, the
/// same for every service: one delivery per item at a time (a second trigger joins the running
/// one), a resend of the waiting items on request and at start-up, and a step that cannot be
/// recorded stops the delivery and is logged (the item waits for the next try with what was
/// recorded).
public protocol OutboxDelivery: AnyObject, Sendable {
    /// What the outbox holds.
    associatedtype Item: OutboxItem
    /// The items.
    var outbox: Outbox<Item> { get }
    /// The deliveries running, one per item.
    var runner: DeliveryRunner { get }
    /// Where a delivery that cannot be recorded is reported.
    var logger: Logger { get }
    /// One delivery of the item `key`: its remaining steps, each recorded in the item, and the
    /// failures told to the profile's connections.
    /// - Throws: the store's error when a step cannot be recorded.
    func send(_ key: String, profile: String) async throws
}

extension OutboxDelivery {
    /// Starts delivering the item `key` (or joins the delivery already running) and returns its task.
    @discardableResult
    public func deliver(_ key: String, profile: String) -> Task<Void, Never> {
        runner.run(Self.runKey(key, profile)) { [self] in await self.sendLogging(key, profile: profile) }
    }

    /// Starts `send`, a delivery of the item `key` that the service begins its own way (a retry
    /// resumed where another gateway left it), or joins the delivery already running for the
    /// item, and returns its task; a step that cannot be recorded is logged as for ``deliver(_:profile:)``.
    @discardableResult
    public func deliver(
        _ key: String, profile: String, by send: @escaping @Sendable () async throws -> Void
    ) -> Task<Void, Never> {
        runner.run(Self.runKey(key, profile)) { [self] in
            do { try await send() } catch { self.logUnrecorded(key, error) }
        }
    }

    /// Delivers every item of the profile not delivered yet, oldest first, each in a try that
    /// starts after this call, and waits for them.
    /// - Returns: the items tried, as they are now.
    /// - Throws: ``StoreError`` when the outbox cannot be read.
    public func deliverWaiting(profile: String) async throws -> [Item] {
        let waiting = try await outbox.items(profile: profile).filter { !$0.isDelivered }
        var tried: [Item] = []
        for item in waiting {
            let key = item.outboxKey
            await runner.runAfterCurrent(Self.runKey(key, profile)) { [self] in await self.sendLogging(key, profile: profile) }
            if let now = try await outbox.item(key, profile: profile) { tried.append(now) }
        }
        return tried
    }

    /// At start-up: every profile's items not delivered yet.
    public func resendAll() async {
        do {
            for profile in try await outbox.profiles() { _ = try await deliverWaiting(profile: profile) }
        } catch {
            logger.error(
                "the outbox waiting at start-up could not be read",
                metadata: ["outbox": .string(Item.outboxNamespace), "error": .string("\(error)")])
        }
    }

    private static func runKey(_ key: String, _ profile: String) -> String { profile + "\u{0}" + key }

    private func sendLogging(_ key: String, profile: String) async {
        do { try await send(key, profile: profile) } catch { logUnrecorded(key, error) }
    }

    private func logUnrecorded(_ key: String, _ error: any Error) {
        logger.error(
            "a delivery step could not be recorded; the item waits for the next try",
            metadata: [
                "outbox": .string(Item.outboxNamespace), "outbox.key": .string(key), "error": .string("\(error)"),
            ])
    }
}
