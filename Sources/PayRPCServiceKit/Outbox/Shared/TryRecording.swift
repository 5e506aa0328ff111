/// What the transaction that records one try's outcome publishes on a shared store, made when the
/// service asks (``DeliveryRetry`` hands it to `attempted`; nil on the embedded store): the try
/// announced made and, after a failure with tries left, the next try armed; or, when the record
/// starts the item's next POST (an accepted answer), that POST's first try armed in the same
/// transaction, so no gateway dies between the two.
///
/// Ask once per try, for the transaction that records it.
public struct TryRecording: Sendable {
    let claims: DeliveryClaims
    /// Whether the try got no answer.
    let failed: Bool
    /// The try's index within its POST.
    let index: Int
    /// The waits before the POST's retries.
    let backoff: [Duration]

    /// The try made and, after a failure with tries left, the next try armed.
    public func publishing() -> DeliveryRetry.Publishing {
        claims.afterTry(failed, index: index, backoff: backoff, then: nil)
    }

    /// ``publishing()``, and when it arms no retry, try `next.index` of the item's next POST armed
    /// too, `next.wait` from now (claimed once this transaction is committed, as a retry is).
    public func publishing(thenArming next: (index: Int, wait: Duration)) -> DeliveryRetry.Publishing {
        claims.afterTry(failed, index: index, backoff: backoff, then: next)
    }
}
