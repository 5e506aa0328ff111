import PayRPCJSON
import PayRPCSchema

/// What the sandbox's issuer does with a test card.
public enum CardOutcome: String, JSONModel, CaseIterable {
    /// Accepted; capture and authorization succeed.
    case approve
    /// `INSTRUMENT_DECLINED`.
    case decline
    /// `CARD_EXPIRED`, whatever expiry is given.
    case expired
    /// `PAYER_ACTION_REQUIRED` until `sandbox.northstar.completePayerAction`.
    case threeDSecure
    /// Accepted by `validate`, then `TRANSACTION_REFUSED` on capture.
    case captureFails
    /// `INTERNAL_SERVICE_ERROR` from the processor.
    case processorError
}
