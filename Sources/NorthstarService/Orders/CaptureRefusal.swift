#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON

/// Why the sandbox refuses to capture an authorization, judged inside the store's transaction
/// (the service turns it into the error after, drawing its debug id outside the transaction).
enum CaptureRefusal: Error, Equatable {
    /// No authorization has the id on the profile.
    case notFound
    /// Its validity ended at this time.
    case expired(Date)
    /// It was closed by a final capture or captured in full.
    case alreadyCaptured
    /// The capture's currency is not the authorization's (this one).
    case currencyMismatch(String)
    /// More than what remains (this much).
    case exceeded(remaining: Amount)
    /// The sandbox's issuer refuses captures of its card (`captureFails`).
    case refusedByIssuer
}
