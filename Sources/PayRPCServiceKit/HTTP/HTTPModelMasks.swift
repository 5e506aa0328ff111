import PayRPCSchema
import PayRPCSync

/// The mask of each model an HTTP body or answer is, made the first time a request names the
/// model and kept: a service sends the same few models on every call, and a request should not
/// walk a schema (``SensitiveMask/init(describing:)``) each time it is made.
enum HTTPModelMasks {
    private static let masks = Lock<[ObjectIdentifier: SensitiveMask]>([:])

    /// The mask of `type`'s schema; the name rule (``SensitiveMask/byName``) when `type` has none.
    static func mask(of type: Any.Type) -> SensitiveMask {
        guard let model = type as? any JSONSchemaProvider.Type else { return .byName }
        let key = ObjectIdentifier(type)
        if let known = masks.withLock({ $0[key] }) { return known }
        // Made outside the lock: two requests that race make the same mask twice, at most.
        let made = SensitiveMask(describing: model)
        masks.withLock { $0[key] = made }
        return made
    }
}
